// When a job's run began, for the jobs whose reports say how long they took (check, lint): the
// JUnit suite's timestamp and host, and the clock its wall time counts from. The CLI's and a
// batch's runs begin before the file is read (its loading counts), a Python call's when it is made.
#pragma once

#include "rigscope/core/run_timer.h"
#include "rigscope/io/junit_report.h"

namespace rigscope {

struct RunStart {
    CheckRunInfo info = start_run_info();
    RunTimer clock;

    // info with the seconds since clock: the run as its reports describe it.
    CheckRunInfo until_now() const {
        CheckRunInfo i = info;
        i.seconds = clock.seconds();
        return i;
    }
};

}  // namespace rigscope
