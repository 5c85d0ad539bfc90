// Mask images for regions (io/image_input.h): PNG through libpng, errors through its longjmp.
#include <png.h>

#include <csetjmp>
#include <cstring>
#include <fstream>
#include <sys/stat.h>

#include "rigscope/core/error.h"
#include "rigscope/io/image_input.h"

namespace rigscope {

namespace {

struct Source {
    const std::vector<unsigned char>* bytes;
    std::size_t at = 0;
    char message[256] = {0};
};

void read_bytes(png_structp png, png_bytep out, png_size_t n) {
    auto* s = static_cast<Source*>(png_get_io_ptr(png));
    if (n > s->bytes->size() - s->at) png_error(png, "the file ends inside the image");
    std::memcpy(out, s->bytes->data() + s->at, n);
    s->at += n;
}

void on_error(png_structp png, png_const_charp message) {
    auto* s = static_cast<Source*>(png_get_error_ptr(png));
    std::strncpy(s->message, message, sizeof s->message - 1);
    png_longjmp(png, 1);
}
void on_warning(png_structp, png_const_charp) {}

// Decodes into `rows` (allocated here, after the header is checked); false with s.message set
// on a libpng error. No C++ object with a destructor lives in this frame across setjmp.
bool decode(png_structp png, png_infop info, Source& s, std::uint64_t max_memory, std::vector<unsigned char>& rows,
            std::vector<png_bytep>& pointers, int& width, int& height, int& channels, int& depth, bool& too_big) {
    if (setjmp(png_jmpbuf(png))) return false;
    png_set_read_fn(png, &s, read_bytes);
    png_set_user_limits(png, 1u << 20, 1u << 20);
    png_read_info(png, info);
    png_set_expand(png);        // palette to RGB, grey below 8 bits to 8, tRNS to alpha
    png_set_strip_alpha(png);
    png_read_update_info(png, info);
    width = int(png_get_image_width(png, info));
    height = int(png_get_image_height(png, info));
    channels = png_get_channels(png, info);
    depth = png_get_bit_depth(png, info);
    const double row_bytes = double(png_get_rowbytes(png, info));
    // The decoded rows and the floats made of them, against the budget, before either is allocated.
    if (row_bytes * height + 4.0 * double(width) * double(height) > double(max_memory)) {
        too_big = true;
        return false;
    }
    rows.resize(std::size_t(row_bytes) * std::size_t(height));
    pointers.resize(std::size_t(height));
    for (int y = 0; y < height; ++y) pointers[std::size_t(y)] = rows.data() + std::size_t(y) * std::size_t(row_bytes);
    png_read_image(png, pointers.data());
    png_read_end(png, nullptr);
    return true;
}

}  // namespace

GreyImage png_grey_from_bytes(const std::vector<unsigned char>& bytes, const std::string& name, std::uint64_t max_memory) {
    if (bytes.size() < 8 || png_sig_cmp(bytes.data(), 0, 8) != 0) throw bad_input(name, "not a PNG file (a mask image is PNG)");
    Source s{&bytes};
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &s, on_error, on_warning);
    if (!png) throw Error(kExitInternal, "libpng: cannot create a reader");
    png_infop info = png_create_info_struct(png);
    if (!info) {
        png_destroy_read_struct(&png, nullptr, nullptr);
        throw Error(kExitInternal, "libpng: cannot create a reader");
    }
    std::vector<unsigned char> rows;
    std::vector<png_bytep> pointers;
    int width = 0, height = 0, channels = 0, depth = 0;
    bool too_big = false;
    const bool ok = decode(png, info, s, max_memory, rows, pointers, width, height, channels, depth, too_big);
    png_destroy_read_struct(&png, &info, nullptr);
    if (too_big) throw bad_input(name, "a mask image of " + std::to_string(width) + " x " + std::to_string(height) + " pixels is past the memory budget (--max-memory)");
    if (!ok) throw bad_input(name, std::string("not a PNG rigscope can read: ") + s.message);
    GreyImage img;
    img.width = width;
    img.height = height;
    img.values.resize(std::size_t(width) * std::size_t(height));
    const std::size_t step = std::size_t(channels) * (depth == 16 ? 2 : 1);
    for (std::size_t i = 0; i < img.values.size(); ++i) {
        const unsigned char* p = rows.data() + i * step;  // the first channel: grey, or red
        img.values[i] = depth == 16 ? float((p[0] << 8 | p[1]) / 65535.0) : float(p[0] / 255.0);
    }
    return img;
}

GreyImage read_png_grey(const std::string& path, std::uint64_t max_memory) {
    struct stat st {};
    if (stat(path.c_str(), &st) != 0) throw bad_input(path, "no such file");
    if (!S_ISREG(st.st_mode)) throw bad_input(path, "not a file");
    if (double(st.st_size) > double(max_memory)) throw bad_input(path, "a mask image past the memory budget (--max-memory)");
    std::ifstream f(path, std::ios::binary);
    std::vector<unsigned char> bytes(static_cast<std::size_t>(st.st_size));
    if (!f.read(reinterpret_cast<char*>(bytes.data()), std::streamsize(bytes.size()))) throw bad_input(path, "cannot be read");
    return png_grey_from_bytes(bytes, path, max_memory);
}

}  // namespace rigscope
