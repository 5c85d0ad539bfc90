// Half-float greyscale EXR through OpenEXR 3 (io/image_output.h). The file is built in memory (the
// EXR writer seeks back to fill its line offset table) and then appended to the OutputFile, so
// the temporary-then-rename rule holds as for every output.
#include <ImfChannelList.h>
#include <ImfFrameBuffer.h>
#include <ImfHeader.h>
#include <ImfIO.h>
#include <ImfOutputFile.h>
#include <half.h>

#include <cstring>
#include <string>
#include <vector>

#include "rigscope/core/error.h"
#include "rigscope/io/image_output.h"

namespace rigscope {

namespace {

class MemoryStream : public Imf::OStream {
public:
    MemoryStream() : Imf::OStream("memory") {}
    void write(const char c[], int n) override {
        if (pos_ + std::size_t(n) > data_.size()) data_.resize(pos_ + std::size_t(n));
        std::memcpy(&data_[pos_], c, std::size_t(n));
        pos_ += std::size_t(n);
    }
    std::uint64_t tellp() override { return pos_; }
    void seekp(std::uint64_t pos) override { pos_ = std::size_t(pos); }
    const std::string& data() const { return data_; }

private:
    std::string data_;
    std::size_t pos_ = 0;
};

}  // namespace

void write_exr_grey_half(OutputFile& out, const float* values, int width, int height) {
    std::vector<half> pixels(std::size_t(width) * std::size_t(height));
    for (std::size_t i = 0; i < pixels.size(); ++i) pixels[i] = half(values[i]);
    MemoryStream stream;
    try {
        Imf::Header header(width, height);  // display window = data window = (0,0)..(w-1,h-1)
        header.lineOrder() = Imf::INCREASING_Y;
        header.compression() = Imf::ZIP_COMPRESSION;
        header.channels().insert("Y", Imf::Channel(Imf::HALF));
        Imf::FrameBuffer fb;
        fb.insert("Y", Imf::Slice(Imf::HALF, reinterpret_cast<char*>(pixels.data()), sizeof(half), sizeof(half) * std::size_t(width)));
        // No OpenEXR threads: bake writes its images on the run's own threads.
        Imf::OutputFile file(stream, header, 0);
        file.setFrameBuffer(fb);
        file.writePixels(height);
    } catch (const std::exception& e) {
        throw Error(kExitInternal, std::string("OpenEXR: ") + e.what());
    }
    out.write(stream.data());
}

}  // namespace rigscope
