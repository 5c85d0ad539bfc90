// A small pool of worker threads for the per-frame kernels: vertex blocks of one frame are
// spread over the cores, and the frame ends when every block is done.
//
// Results never depend on the thread count: callers split work into blocks whose boundaries do
// not depend on it, and each block writes only its own outputs.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <exception>
#include <type_traits>
#include <mutex>
#include <thread>
#include <vector>

namespace rigscope {

class ThreadPool {
public:
    // threads = 0: std::thread::hardware_concurrency() (at least 1). The calling thread is one of
    // them, so a pool of 1 starts no thread at all.
    explicit ThreadPool(unsigned threads = 0);
    ~ThreadPool();
    ThreadPool(const ThreadPool&) = delete;
    ThreadPool& operator=(const ThreadPool&) = delete;

    // Threads running, the caller included: fewer than asked for when threads could not start.
    unsigned size() const { return static_cast<unsigned>(workers_.size()) + 1; }
    unsigned requested() const { return requested_; }

    // Runs fn(task) for every task in [0, tasks) and returns when all are done. Tasks are taken
    // in increasing order by whichever thread is free. The first exception a task throws is
    // rethrown here (remaining tasks still run). fn is only referenced, never copied: no
    // allocation per call, which runs a few times per frame.
    template <typename Fn>
    void run(std::size_t tasks, Fn&& fn) {
        run_ref(tasks, TaskRef{&fn, [](void* f, std::size_t i) { (*static_cast<std::remove_reference_t<Fn>*>(f))(i); }});
    }

    static unsigned default_threads();

private:
    unsigned requested_ = 1;
    struct TaskRef {
        void* fn;
        void (*call)(void*, std::size_t);
    };
    void run_ref(std::size_t tasks, TaskRef fn);
    void work(std::size_t generation_seen);
    void drain();

    std::vector<std::thread> workers_;
    std::mutex mutex_;
    std::condition_variable wake_, done_;
    TaskRef fn_{nullptr, nullptr};
    std::size_t tasks_ = 0;
    std::size_t next_ = 0;       // next task to take (under mutex_)
    std::size_t finished_ = 0;   // tasks completed in this generation
    std::atomic<std::size_t> generation_{0};
    std::atomic<bool> all_done_{false};  // finished_ == tasks_, for the caller to watch without the mutex
    bool stop_ = false;
    std::exception_ptr error_;
};

// Runs fn(task) for task in [0, tasks): on the pool when given one, else inline in order.
template <typename Fn>
void run_tasks(ThreadPool* pool, std::size_t tasks, Fn&& fn) {
    if (pool && pool->size() > 1 && tasks > 1) {
        pool->run(tasks, fn);
        return;
    }
    for (std::size_t i = 0; i < tasks; ++i) fn(i);
}

}  // namespace rigscope
