#include "rigscope/core/parallel.h"

#include <chrono>
#include <new>
#include <system_error>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace rigscope {

namespace {
// How long an idle worker watches for the next phase before sleeping: longer than the gap
// between a frame's phases, short enough to cost nothing measurable between frames.
constexpr int kSpinMicroseconds = 100;
}  // namespace

unsigned ThreadPool::default_threads() {
    const unsigned n = std::thread::hardware_concurrency();
    return n ? n : 1;
}

ThreadPool::ThreadPool(unsigned threads) {
    if (threads == 0) threads = default_threads();
    requested_ = threads;
    // A thread that cannot start (an address-space limit, `ulimit -v`, leaves no room for its
    // stack; or the process's thread limit) ends the pool where it is: fewer threads give the
    // same results, only later. Letting the exception out would destroy the vector's running
    // threads unjoined, which aborts.
    try {
        workers_.reserve(threads - 1);
        for (unsigned i = 1; i < threads; ++i) workers_.emplace_back([this] { work(0); });
    } catch (const std::system_error&) {
    } catch (const std::bad_alloc&) {
    }
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
    for (;;) {
        // A frame runs its phases back to back (skin, then tension, per mesh): watching for the
        // next one a moment before sleeping saves a wake-up each time, which on a virtual
        // machine costs about as much as a small phase.
        const auto until = std::chrono::steady_clock::now() + std::chrono::microseconds(kSpinMicroseconds);
        for (int spin = 0; generation_.load(std::memory_order_acquire) == seen; ++spin) {
#if defined(__SSE2__)
            _mm_pause();
#endif
            if ((spin & 63) == 63 && std::chrono::steady_clock::now() > until) break;
        }
        {
            std::unique_lock<std::mutex> lock(mutex_);
            wake_.wait(lock, [&] { return stop_ || generation_.load(std::memory_order_relaxed) != seen; });
            if (stop_) return;
            seen = generation_.load(std::memory_order_relaxed);
        }
        drain();
    }
}

// Takes tasks until none is left. Tasks are coarse (tens of microseconds at least), so a mutex
// per task costs nothing measurable and keeps the bookkeeping obvious.
void ThreadPool::drain() {
    std::unique_lock<std::mutex> lock(mutex_);
    while (next_ < tasks_) {
        const std::size_t task = next_++;
        const TaskRef fn = fn_;
        lock.unlock();
        std::exception_ptr failed;
        try {
            fn.call(fn.fn, task);
        } catch (...) {
            failed = std::current_exception();
        }
        lock.lock();
        if (failed && !error_) error_ = failed;
        if (++finished_ == tasks_) {
            all_done_.store(true, std::memory_order_release);
            done_.notify_all();
        }
    }
}

void ThreadPool::run_ref(std::size_t tasks, TaskRef fn) {
    if (tasks == 0) return;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        fn_ = fn;
        tasks_ = tasks;
        next_ = 0;
        finished_ = 0;
        error_ = nullptr;
        all_done_.store(false, std::memory_order_relaxed);
        generation_.fetch_add(1, std::memory_order_release);
    }
    wake_.notify_all();
    drain();
    // The other threads' last tasks are still running: the caller watches for their end a
    // moment before sleeping, as an idle worker watches for the next phase. A frame ends two or
    // three phases so (the tiles, the deferred batches), and a sleeping caller's wake-up costs
    // about a small phase on a virtual machine (issue 62: the frame's 1 -> 2 thread scaling).
    const auto until = std::chrono::steady_clock::now() + std::chrono::microseconds(kSpinMicroseconds);
    for (int spin = 0; !all_done_.load(std::memory_order_acquire); ++spin) {
#if defined(__SSE2__)
        _mm_pause();
#endif
        if ((spin & 63) == 63 && std::chrono::steady_clock::now() > until) break;
    }
    std::exception_ptr failed;
    {
        std::unique_lock<std::mutex> lock(mutex_);
        done_.wait(lock, [&] { return finished_ == tasks_; });
        fn_ = TaskRef{nullptr, nullptr};
        tasks_ = next_ = finished_ = 0;
        failed = error_;
        error_ = nullptr;
    }
    if (failed) std::rethrow_exception(failed);
}

}  // namespace rigscope
