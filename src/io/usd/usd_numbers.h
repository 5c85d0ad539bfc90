// A numeric array of a USD layer in the type the layer stores it: floats stay floats and ints
// stay ints (a crate's point3f[] and int[] as read, a text layer's decimals as doubles until the
// parse rounds them to the attribute's type). Shared and immutable once made: composing a stage
// copies a property's value for every prim that inherits it, and reading a mesh reads its arrays,
// and neither copies the numbers. The mesh of the bench tube is 55 MB of doubles otherwise,
// copied three times on the way to the scene (issue 39's load line).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <type_traits>
#include <vector>

#include "rigscope/core/huge_pages.h"
#include "rigscope/core/uninit_allocator.h"

namespace rigscope::usd {

class Numbers {
public:
    enum class Type : std::uint8_t { Double, Float, Int32, UInt32 };

    Numbers() = default;
    explicit Numbers(std::vector<double> v) { hold(std::move(v), Type::Double); }
    explicit Numbers(std::vector<float> v) { hold(std::move(v), Type::Float); }
    explicit Numbers(std::vector<std::int32_t> v) { hold(std::move(v), Type::Int32); }
    explicit Numbers(std::vector<std::uint32_t> v) { hold(std::move(v), Type::UInt32); }

    // n numbers of T (double, float, std::int32_t or std::uint32_t) left unwritten, on huge
    // pages where the kernel allows, and `data`, where to write them: the crate reader decodes
    // a file's array straight into the Numbers that holds it (no zero fill before, no copy
    // after), and writes every one before the Numbers is read or copied.
    template <class T>
    static Numbers unwritten(std::size_t n, T*& data) {
        auto v = std::make_shared<std::vector<T, UninitAllocator<T>>>();
        v->reserve(n);
        detail::advise_huge(v->data(), n * sizeof(T));
        v->resize(n);
        data = v->data();
        return within<T>(std::move(v), data, n);
    }

    // n numbers of T at `data`, which `owner` keeps alive (a block that holds other arrays too).
    template <class T>
    static Numbers within(std::shared_ptr<const void> owner, const T* data, std::size_t n) {
        Numbers out;
        out.data_ = data;
        out.size_ = n;
        out.type_ = type_of<T>();
        out.hold_ = std::move(owner);
        return out;
    }

    std::size_t size() const { return size_; }
    bool empty() const { return size_ == 0; }
    Type type() const { return type_; }
    std::size_t bytes() const { return size_ * (type_ == Type::Double ? 8 : 4); }

    // f(const T* data, std::size_t count) with T the stored type; its result returned.
    template <class F>
    decltype(auto) visit(F&& f) const {
        switch (type_) {
            case Type::Float: return f(static_cast<const float*>(data_), size_);
            case Type::Int32: return f(static_cast<const std::int32_t*>(data_), size_);
            case Type::UInt32: return f(static_cast<const std::uint32_t*>(data_), size_);
            default: return f(static_cast<const double*>(data_), size_);
        }
    }

    // Element i as a double (every stored type converts exactly).
    double operator[](std::size_t i) const {
        return visit([i](const auto* d, std::size_t) { return double(d[i]); });
    }
    std::vector<double> doubles() const {
        return visit([](const auto* d, std::size_t n) { return std::vector<double>(d, d + n); });
    }
    // Equal numbers, whatever the stored types.
    bool operator==(const Numbers& o) const {
        if (size_ != o.size_) return false;
        if (data_ == o.data_) return true;
        return visit([&o](const auto* a, std::size_t n) {
            return o.visit([a, n](const auto* b, std::size_t) {
                for (std::size_t i = 0; i < n; ++i)
                    if (!(double(a[i]) == double(b[i]))) return false;
                return true;
            });
        });
    }
    bool operator!=(const Numbers& o) const { return !(*this == o); }

private:
    template <class T>
    static constexpr Type type_of() {
        static_assert(std::is_same<T, double>::value || std::is_same<T, float>::value || std::is_same<T, std::int32_t>::value ||
                          std::is_same<T, std::uint32_t>::value,
                      "a stored type");
        return std::is_same<T, float>::value ? Type::Float
               : std::is_same<T, std::int32_t>::value ? Type::Int32
               : std::is_same<T, std::uint32_t>::value ? Type::UInt32
                                                       : Type::Double;
    }

    template <class T>
    void hold(std::vector<T> v, Type t) {
        auto p = std::make_shared<const std::vector<T>>(std::move(v));
        data_ = p->data();
        size_ = p->size();
        type_ = t;
        hold_ = std::move(p);
    }

    std::shared_ptr<const void> hold_;
    const void* data_ = nullptr;
    std::size_t size_ = 0;
    Type type_ = Type::Double;
};

}  // namespace rigscope::usd
