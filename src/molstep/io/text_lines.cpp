// SPDX-License-Identifier: MIT
#include "molstep/io/text_lines.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <algorithm>
#include <limits>

namespace molstep::io {

namespace {
constexpr std::size_t block_size = std::size_t{1} << 22;  // 4 MiB reads keep syscalls rare
}

TextLines::TextLines(const std::filesystem::path& path) : file_(path.string()) {
  in_ = std::fopen(file_.c_str(), "rb");
  if (!in_) throw Error("cannot open '" + file_ + "' for reading: " + std::strerror(errno));
  buf_.resize(block_size);
}

TextLines::~TextLines() {
  if (in_) std::fclose(in_);
}

// Moves the unread tail to the front and reads more behind it, growing the buffer when a
// single line fills it. Returns false when nothing more could be read.
bool TextLines::refill() {
  if (eof_) return false;
  if (begin_ > 0) {
    std::memmove(buf_.data(), buf_.data() + begin_, end_ - begin_);
    end_ -= begin_;
    begin_ = 0;
  }
  if (end_ == buf_.size()) buf_.resize(buf_.size() * 2);
  const std::size_t got = std::fread(buf_.data() + end_, 1, buf_.size() - end_, in_);
  if (got == 0) {
    if (std::ferror(in_)) throw Error(SourceLoc{file_, 0}, "read error after line " + std::to_string(line_));
    eof_ = true;
    return false;
  }
  end_ += got;
  return true;
}

bool TextLines::next(std::string_view& line) {
  std::size_t scanned = begin_;
  for (;;) {
    const void* nl = std::memchr(buf_.data() + scanned, '\n', end_ - scanned);
    if (nl) {
      const std::size_t pos = static_cast<std::size_t>(static_cast<const char*>(nl) - buf_.data());
      std::size_t stop = pos;
      if (stop > begin_ && buf_[stop - 1] == '\r') --stop;
      line = std::string_view(buf_.data() + begin_, stop - begin_);
      begin_ = pos + 1;
      ++line_;
      return true;
    }
    const std::size_t seen = end_ - begin_;
    if (!refill()) break;
    scanned = begin_ + seen;
  }
  if (begin_ == end_) return false;
  std::size_t stop = end_;
  if (buf_[stop - 1] == '\r') --stop;
  line = std::string_view(buf_.data() + begin_, stop - begin_);
  begin_ = end_;
  ++line_;
  return true;
}

void TextLines::fail_at(std::int64_t line, const std::string& message) const {
  const int l = line > std::numeric_limits<int>::max() ? 0 : static_cast<int>(line);
  throw Error(SourceLoc{file_, l}, message);
}

bool parse_underflow(std::string_view s, double& v) {
  const std::string text(s);
  char* end = nullptr;
  v = std::strtod(text.c_str(), &end);
  return end == text.c_str() + text.size() && std::fabs(v) < 1.0;
}

std::string excerpt(std::string_view s) {
  constexpr std::size_t max = 60;
  const bool cut = s.size() > max;
  std::string out;
  out.reserve(std::min(s.size(), max) + 5);
  out.push_back('\'');
  out.append(s.data(), cut ? max : s.size());
  if (cut) out.append("...");
  out.push_back('\'');
  return out;
}

}  // namespace molstep::io
