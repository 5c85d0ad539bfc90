#include "rigscope/parallel.h"

namespace rigscope {

unsigned ThreadPool::default_threads() {
    const unsigned n = std::thread::hardware_concurrency();
    return n ? n : 1;
}

ThreadPool::ThreadPool(unsigned threads) {
    if (threads == 0) threads = default_threads();
    workers_.reserve(threads - 1);
    for (unsigned i = 1; i < threads; ++i) workers_.emplace_back([this] { work(0); });
}

ThreadPool::~ThreadPool() {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        stop_ = true;
    }
    wake_.notify_all();
    for (auto& t : workers_) t.join();
}

void ThreadPool::work(std::size_t seen) {
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
        wake_.wait(lock, [&] { return stop_ || generation_ != seen; });
        if (stop_) return;
        seen = generation_;
        lock.unlock();
        drain();
        lock.lock();
    }
}

// Takes tasks until none is left. Tasks are coarse (tens of microseconds at least), so a mutex
// per task costs nothing measurable and keeps the bookkeeping obvious.
void ThreadPool::drain() {
    std::unique_lock<std::mutex> lock(mutex_);
    while (next_ < tasks_) {
        const std::size_t task = next_++;
        const auto* fn = fn_;
        lock.unlock();
        std::exception_ptr failed;
        try {
            (*fn)(task);
        } catch (...) {
            failed = std::current_exception();
        }
        lock.lock();
        if (failed && !error_) error_ = failed;
        if (++finished_ == tasks_) done_.notify_all();
    }
}

void ThreadPool::run(std::size_t tasks, const std::function<void(std::size_t)>& fn) {
    if (tasks == 0) return;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        fn_ = &fn;
        tasks_ = tasks;
        next_ = 0;
        finished_ = 0;
        error_ = nullptr;
        ++generation_;
    }
    wake_.notify_all();
    drain();
    std::exception_ptr failed;
    {
        std::unique_lock<std::mutex> lock(mutex_);
        done_.wait(lock, [&] { return finished_ == tasks_; });
        fn_ = nullptr;
        tasks_ = next_ = finished_ = 0;
        failed = error_;
        error_ = nullptr;
    }
    if (failed) std::rethrow_exception(failed);
}

}  // namespace rigscope
