// Half-float greyscale (Y) or colour (R, G, B) EXR through OpenEXR 3 (io/image_output.h). The
// file is built in memory (the EXR writer seeks back to fill its line offset table) and then
// appended to the OutputFile, so the temporary-then-rename rule holds as for every output.
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

void write_exr_half(std::string& bytes, const float* values, int width, int height, int channels) {
    if (channels != 1 && channels != 3) throw Error(kExitInternal, "write_exr_half: " + std::to_string(channels) + " channels");
    std::vector<half> pixels(std::size_t(width) * std::size_t(height) * std::size_t(channels));
    for (std::size_t i = 0; i < pixels.size(); ++i) pixels[i] = half(values[i]);
    MemoryStream stream;
    try {
        Imf::Header header(width, height);  // display window = data window = (0,0)..(w-1,h-1)
        header.lineOrder() = Imf::INCREASING_Y;
        header.compression() = Imf::ZIP_COMPRESSION;
        // The texels hold their channels interleaved: each channel a slice of stride `channels`.
        static const char* const kGrey[] = {"Y"};
        static const char* const kColour[] = {"R", "G", "B"};
        const char* const* names = channels == 3 ? kColour : kGrey;
        const std::size_t pixel = sizeof(half) * std::size_t(channels);
        Imf::FrameBuffer fb;
        for (int c = 0; c < channels; ++c) {
            header.channels().insert(names[c], Imf::Channel(Imf::HALF));
            fb.insert(names[c], Imf::Slice(Imf::HALF, reinterpret_cast<char*>(pixels.data() + c), pixel, pixel * std::size_t(width)));
        }
        // No OpenEXR threads: bake writes its images on the run's own threads.
        Imf::OutputFile file(stream, header, 0);
        file.setFrameBuffer(fb);
        file.writePixels(height);
    } catch (const std::exception& e) {
        throw Error(kExitInternal, std::string("OpenEXR: ") + e.what());
    }
    bytes.append(stream.data());
}

void write_exr_half(OutputFile& out, const float* values, int width, int height, int channels) {
    std::string bytes;
    write_exr_half(bytes, values, width, height, channels);
    out.write(bytes);
}

}  // namespace rigscope
