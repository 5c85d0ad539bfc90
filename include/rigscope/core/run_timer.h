// A run's wall clock, the one every timing field is read from (check's and lint's JUnit time,
// diff's and rivet's run seconds, a batch row's seconds) and the CLI's progress line: started
// when made, read as seconds since. Wall time on the steady clock, never the calendar's.
#pragma once

#include <chrono>

namespace rigscope {

class RunTimer {
public:
    RunTimer() : start_(std::chrono::steady_clock::now()) {}
    // Seconds since the timer was made.
    double seconds() const { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count(); }

private:
    std::chrono::steady_clock::time_point start_;
};

}  // namespace rigscope
