// The mesh accessors converted ahead of the scene reader on helper threads (issue 62: the load
// of a one-mesh run took its first ~40 ms on one core while the other waited). The reader reads
// a mesh's accessors one after another, between them building the mesh (faces, influences);
// the helpers convert the next ones meanwhile, each into arrays of its own, so the page faults
// of those arrays (a third of the load) fall on the helper's core too.
//
// Only the conversion moves: element checks, budget charges, the cache of shared accessors,
// warnings and errors all stay on the reader's thread, in its order. A slot is claimed by
// whichever thread comes first: a helper converts it, or the reader, reaching it before any
// helper did, converts it itself as it always did. A conversion that throws on a helper is
// dropped and done again by the reader, which so fails with the same message at the same point.
#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <system_error>
#include <thread>

#include "io/gltf/gltf_document.h"
#include "rigscope/core/huge_pages.h"

namespace rigscope::gltf {

struct Document::Prefetch {
    enum State : int {
        Free,     // nobody has it yet
        Claimed,  // a helper is converting it
        Done,     // a helper converted it; the reader may take it
        Failed,   // a helper's conversion threw: the reader converts it again
        Taken,    // the reader took it or converts it itself: nobody else touches it
    };
    struct Slot {
        int accessor = -1;
        bool as_uints = false;
        Element element;
        std::atomic<int> state{Free};
        std::vector<float> floats;
        std::vector<std::uint32_t> uints;
    };
    std::unique_ptr<Slot[]> slots;
    std::size_t count = 0;
    std::map<std::pair<int, bool>, std::size_t> slot_of;  // (accessor, as uints) -> slot
    // How far the helpers run ahead: slots up to the reader's furthest slot + kAhead. Every
    // array converted ahead is held until the reader takes it, and is reserved before the
    // reader frees the ones it is done with: all of them ahead took 1,000-1,500 more page
    // faults and 4-10 MB more peak memory per load of the bench tube.
    static constexpr std::size_t kAhead = 2;
    std::size_t reader_at = 0;      // the reader's furthest slot + 1 (under mutex)
    std::size_t reserved = 0;       // slots below this have their room reserved (under mutex)
    bool stop = false;              // the document is going: helpers leave (under mutex)
    // The reader's side only: the slot its next first read should be, and whether a read
    // left the plan (prefetch_followed_plan).
    std::size_t next_first = 0;
    bool diverged = false;
    std::mutex mutex;
    std::condition_variable finished;  // a helper finished a slot
    std::condition_variable advanced;  // the reader moved on, or stop
    std::vector<std::thread> helpers;

    // On the reader's thread: room for the slots now within reach of the helpers, reserved
    // before the helpers may claim them (so from the reader's heap; see convert_floats).
    void reserve_within_reach() {
        const std::size_t reach = std::min(count, reader_at + kAhead + 1);
        for (; reserved < reach; ++reserved) {
            Slot& s = slots[reserved];
            const std::size_t n = s.element.count * s.element.components;
            if (s.as_uints) detail::reserve_huge(s.uints, n);
            else detail::reserve_huge(s.floats, n);
        }
    }
};

namespace {

// The accessors read_mesh reads for a primitive, in its order, each with how it is read
// (uints for indices and joints, floats for the rest). A second statement of read_mesh's order:
// test_gltf_threads.cpp fails on any file where the two part (prefetch_followed_plan).
void planned_reads(const json& prim, std::vector<std::pair<int, bool>>& out) {
    if (!prim.is_object() || !prim.contains("attributes") || !prim["attributes"].is_object()) return;
    const json& attrs = prim["attributes"];
    auto add = [&](const json& obj, const std::string& key, bool as_uints) {
        if (!obj.is_object() || !obj.contains(key)) return false;
        const json& v = obj[key];
        if (!v.is_number_unsigned() || v.get<std::uint64_t>() > 0x7fffffffu) return false;
        out.emplace_back(static_cast<int>(v.get<std::uint64_t>()), as_uints);
        return true;
    };
    add(attrs, "POSITION", false);
    for (int set = 0; add(attrs, "TEXCOORD_" + std::to_string(set), false); ++set) {}
    add(attrs, "NORMAL", false);
    add(prim, "indices", true);
    for (int set = 0;; ++set) {
        const bool j = add(attrs, "JOINTS_" + std::to_string(set), true);
        const bool w = add(attrs, "WEIGHTS_" + std::to_string(set), false);
        if (!j || !w) break;
    }
    if (prim.contains("targets") && prim["targets"].is_array())
        for (const json& t : prim["targets"]) add(t, "POSITION", false);
}

}  // namespace

void Document::prefetch_mesh_accessors(const std::vector<int>& meshes, unsigned threads) {
    if (threads <= 1 || prefetch_) return;
    std::vector<std::pair<int, bool>> reads;
    const json& all = array(root_, "meshes", "");
    for (int m : meshes) {
        if (m < 0 || static_cast<std::size_t>(m) >= all.size() || !all[m].is_object()) continue;
        if (!all[m].contains("primitives") || !all[m]["primitives"].is_array()) continue;
        for (const json& prim : all[m]["primitives"]) planned_reads(prim, reads);
    }
    std::unique_ptr<Prefetch, PrefetchDelete> p(new Prefetch);
    p->slots = std::make_unique<Prefetch::Slot[]>(reads.size());
    double bytes = 0;
    for (const auto& [accessor, as_uints] : reads) {
        if (p->slot_of.count({accessor, as_uints})) continue;  // read once, then kept by shared()
        Element e;
        try {
            e = element(accessor);  // on this thread: it checks against the budget
        } catch (const std::exception&) {
            continue;  // the reader will refuse it, with its message, when it gets there
        }
        // uints() refuses these before converting; a helper must not convert them either.
        if (as_uints && (e.component_type == 5126 || e.component_type == 5120 || e.component_type == 5122)) continue;
        bytes += double(e.count) * e.components * (as_uints ? sizeof(std::uint32_t) : sizeof(float));
        Prefetch::Slot& s = p->slots[p->count];
        s.accessor = accessor;
        s.as_uints = as_uints;
        s.element = e;
        p->slot_of[{accessor, as_uints}] = p->count++;
    }
    // The arrays exist before the reader charges them: all of them must fit in what is left.
    if (p->count == 0 || bytes > double(budget_.left())) return;
    p->reserve_within_reach();
    Prefetch* pf = p.get();
    prefetch_ = std::move(p);
    // A helper that cannot start (the process's thread limit) leaves its share to the others
    // and the reader, which converts whatever nobody claimed: the same scene, later.
    for (unsigned t = 1; t < threads; ++t) try {
        pf->helpers.emplace_back([this, pf] {
            for (std::size_t i = 0; i < pf->count; ++i) {
                {
                    std::unique_lock<std::mutex> lock(pf->mutex);
                    pf->advanced.wait(lock, [&] { return pf->stop || i < pf->reserved; });
                    if (pf->stop) return;
                }
                Prefetch::Slot& s = pf->slots[i];
                int expected = Prefetch::Free;
                if (!s.state.compare_exchange_strong(expected, Prefetch::Claimed)) continue;
                int result = Prefetch::Done;
                try {
                    if (s.as_uints) s.uints = convert_uints(s.accessor, s.element, std::move(s.uints));
                    else s.floats = convert_floats(s.accessor, s.element, std::move(s.floats));
                } catch (...) {
                    s.floats = {};
                    s.uints = {};
                    result = Prefetch::Failed;
                }
                {
                    std::lock_guard<std::mutex> lock(pf->mutex);
                    s.state.store(result);
                }
                pf->finished.notify_all();
            }
        });
    } catch (const std::system_error&) {
        break;
    }
}

void Document::PrefetchDelete::operator()(Prefetch* p) const { delete p; }

Document::~Document() {
    if (!prefetch_) return;
    {
        std::lock_guard<std::mutex> lock(prefetch_->mutex);
        prefetch_->stop = true;
    }
    prefetch_->advanced.notify_all();
    for (std::thread& t : prefetch_->helpers) t.join();
}

namespace {

// The reader's side of a slot: take what a helper converted, waiting while one converts it;
// or, where no helper has started it, keep it from them (the reader converts it itself).
// `data` picks the slot's array of T. A template on the slot's type, which is private to
// Document and so deduced here rather than named.
template <typename Prefetch, typename Slot, typename T>
bool take(Prefetch& p, int accessor, bool as_uints, std::vector<T> Slot::*data, std::vector<T>& out) {
    auto it = p.slot_of.find({accessor, as_uints});
    if (it == p.slot_of.end()) {
        // Reads before the plan's first (skins) and after its last (animations) are not its.
        if (p.next_first > 0 && p.next_first < p.count) p.diverged = true;
        return false;
    }
    Slot& s = p.slots[it->second];
    if (s.state.load() != Prefetch::Taken) {  // its first read (only the reader sets Taken)
        if (it->second != p.next_first) p.diverged = true;
        p.next_first = it->second + 1;
    }
    {
        // The helpers may now run up to kAhead slots past this one.
        std::lock_guard<std::mutex> lock(p.mutex);
        if (it->second + 1 > p.reader_at) {
            p.reader_at = it->second + 1;
            p.reserve_within_reach();
        }
    }
    p.advanced.notify_all();
    int expected = Prefetch::Free;
    if (s.state.compare_exchange_strong(expected, Prefetch::Taken)) return false;
    if (expected == Prefetch::Taken) return false;  // read before, since freed by shared(): read again
    std::unique_lock<std::mutex> lock(p.mutex);
    p.finished.wait(lock, [&] { return s.state.load() != Prefetch::Claimed; });
    const bool done = s.state.load() == Prefetch::Done;
    s.state.store(Prefetch::Taken);
    if (done) out = std::move(s.*data);
    return done;
}

}  // namespace

bool Document::prefetch_followed_plan() const {
    return prefetch_ && !prefetch_->diverged && prefetch_->next_first == prefetch_->count;
}

bool Document::take_prefetched(int accessor, std::vector<float>& out) const {
    return prefetch_ && take(*prefetch_, accessor, false, &Prefetch::Slot::floats, out);
}

bool Document::take_prefetched(int accessor, std::vector<std::uint32_t>& out) const {
    return prefetch_ && take(*prefetch_, accessor, true, &Prefetch::Slot::uints, out);
}

}  // namespace rigscope::gltf
