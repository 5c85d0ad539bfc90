// A frame's CSV rows formatted in blocks on a pool of the run's threads, each block into its own
// buffer, then written in order: the bytes one thread formatting them all would write, for any
// thread count. Formatting (to_chars of several floats a row) costs several times a frame's
// evaluation, so one thread writing while the others waited left the cores idle for most of a
// CSV run (issue 44). A few blocks a thread at a time, so the text held stays a few MB whatever
// the mesh's size.
#pragma once

#include <algorithm>
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "rigscope/core/parallel.h"
#include "rigscope/io/output.h"

namespace rigscope {

class RowBlocks {
public:
    // threads: the run's --threads (0: every core; 1: the caller alone, no pool started).
    explicit RowBlocks(unsigned threads) : threads_(threads) {}

    // format(buf, begin, end) appends rows [begin, end) to buf; it runs on several threads at
    // once, each with its own buf and rows.
    template <typename Format>
    void write(OutputFile& out, std::size_t rows, Format&& format) {
        const std::size_t blocks = (rows + kRows - 1) / kRows;
        if (blocks > 1 && threads_ != 1 && !pool_) pool_ = std::make_unique<ThreadPool>(threads_);
        const std::size_t group = pool_ ? 2 * std::size_t(pool_->size()) : 1;
        if (blocks_.size() < group) blocks_.resize(group);
        for (std::size_t g = 0; g < blocks; g += group) {
            const std::size_t n = std::min(group, blocks - g);
            run_tasks(pool_.get(), n, [&](std::size_t j) {
                const std::size_t b = g + j;
                blocks_[j].clear();
                format(blocks_[j], b * kRows, std::min(rows, (b + 1) * kRows));
            });
            for (std::size_t j = 0; j < n; ++j) out.write(blocks_[j]);
        }
    }

private:
    static constexpr std::size_t kRows = 16384;  // rows per block: a few hundred KB of text
    unsigned threads_;
    std::unique_ptr<ThreadPool> pool_;  // started at the first frame with more than one block
    std::vector<std::string> blocks_;   // a group's text, kept between frames
};

}  // namespace rigscope
