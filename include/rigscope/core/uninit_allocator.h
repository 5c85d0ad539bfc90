// std::vector storage that a resize leaves unwritten: for arrays every element of which is
// written before it is read (a file read over at once, an array filled on the threads).
#pragma once

#include <memory>
#include <new>
#include <type_traits>
#include <utility>

namespace rigscope {

// An allocator whose resize default-initialises: a trivial type is left unwritten, so that an
// array filled on the threads is first touched there instead of zeroed (and page-faulted) on one.
template <typename T>
struct UninitAllocator : std::allocator<T> {
    template <typename U>
    struct rebind {
        using other = UninitAllocator<U>;
    };
    UninitAllocator() = default;
    template <typename U>
    UninitAllocator(const UninitAllocator<U>&) noexcept {}
    template <typename U>
    void construct(U* p) noexcept(std::is_nothrow_default_constructible<U>::value) {
        ::new (static_cast<void*>(p)) U;
    }
    template <typename U, typename... Args>
    void construct(U* p, Args&&... args) {
        ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
    }
};

}  // namespace rigscope
