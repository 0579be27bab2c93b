// SPDX-License-Identifier: MIT
#include "molstep/io/xdr_frame_output.hpp"

#include <fmt/format.h>

#include <limits>

#include "molstep/core/error.hpp"

namespace molstep::io::xdr {

FrameOutput::FrameOutput(const std::filesystem::path& path, std::size_t natoms, std::string_view format)
    : file_(path), natoms_(natoms), format_(format) {}

Writer& FrameOutput::begin_frame(const core::Frame& frame) {
  if (closed_) fail("write after close()");
  if (frame.natoms() != natoms_) {
    fail(fmt::format("has {} atoms, the file was created for {}", frame.natoms(), natoms_));
  }
  if (frame.step < std::numeric_limits<std::int32_t>::min() || frame.step > std::numeric_limits<std::int32_t>::max()) {
    fail(fmt::format("step {} does not fit the 32-bit step field of {}", frame.step, format_));
  }
  out_.clear();
  return out_;
}

void FrameOutput::end_frame() {
  auto& s = file_.stream();
  s.write(reinterpret_cast<const char*>(out_.bytes().data()), static_cast<std::streamsize>(out_.bytes().size()));
  if (!s) fail("write failed");
  ++frame_;
}

void FrameOutput::close() {
  if (closed_) return;
  file_.commit();
  closed_ = true;
}

void FrameOutput::fail(const std::string& what) const {
  throw Error(SourceLoc{file_.path().string(), 0}, fmt::format("frame {}: {}", frame_, what));
}

}  // namespace molstep::io::xdr
