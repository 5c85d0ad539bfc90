// Files finished on threads of their own (run/background_finish.h).
#include "background_finish.h"

#include <algorithm>

namespace rigscope {

BackgroundFinish::~BackgroundFinish() {
    for (std::thread& t : threads_) t.join();  // errors are the caller's to see through wait()
}

void BackgroundFinish::start(std::vector<OutputFile*> files) {
    wait();
    files_ = std::move(files);
    const std::size_t threads = std::min(kThreads, files_.size());
    errors_.assign(threads, nullptr);
    for (std::size_t t = 0; t < threads; ++t)
        threads_.emplace_back([this, t, threads] {
            try {
                for (std::size_t k = t; k < files_.size(); k += threads) files_[k]->finish();
            } catch (...) {
                errors_[t] = std::current_exception();
            }
        });
}

void BackgroundFinish::wait() {
    for (std::thread& t : threads_) t.join();
    threads_.clear();
    files_.clear();
    for (const std::exception_ptr& e : errors_)
        if (e) {
            errors_.clear();
            std::rethrow_exception(e);
        }
    errors_.clear();
}

}  // namespace rigscope
