// SPDX-License-Identifier: MIT
#include "molstep/io/eam_file.hpp"

#include <fstream>
#include <sstream>

#include "molstep/core/args.hpp"
#include "molstep/core/error.hpp"

namespace molstep::io {

namespace {

// Reads a potential file as lines of whitespace-separated words, tracking line numbers, with
// tables that may run across lines.
class Reader {
 public:
  explicit Reader(const std::filesystem::path& path) : path_(path), in_(path) {
    if (!in_) throw Error("cannot open potential file '" + path.string() + "'");
  }

  [[noreturn]] void fail(const std::string& what) const { throw Error(SourceLoc{path_.string(), line_}, what); }

  // The next whole line, which must start fresh (no unread words on the current one).
  std::vector<std::string> line(const std::string& what) {
    if (pos_ < words_.size()) fail("expected " + what + " on a new line, but the previous line has extra values");
    std::string text;
    if (!std::getline(in_, text)) fail("file ends where " + what + " was expected");
    ++line_;
    split(text);
    return words_;
  }

  void skip_line(const std::string& what) { (void)line(what); pos_ = words_.size(); }

  std::vector<double> values(std::size_t n, const std::string& what) {
    std::vector<double> out;
    out.reserve(n);
    while (out.size() < n) {
      if (pos_ >= words_.size()) {
        std::string text;
        if (!std::getline(in_, text))
          fail("file ends after " + std::to_string(out.size()) + " of " + std::to_string(n) + " values of " + what +
               " (truncated table?)");
        ++line_;
        split(text);
        continue;
      }
      double v;
      if (!core::parse_double(words_[pos_], v))
        fail("expected a number in " + what + ", found '" + words_[pos_] + "'");
      out.push_back(v);
      ++pos_;
    }
    return out;
  }

  double number(const std::vector<std::string>& w, std::size_t i, const std::string& what) const {
    double v;
    if (i >= w.size()) fail("missing " + what);
    if (!core::parse_double(w[i], v)) fail("expected a number for " + what + ", found '" + w[i] + "'");
    return v;
  }
  long long integer(const std::vector<std::string>& w, std::size_t i, const std::string& what) const {
    long long v;
    if (i >= w.size()) fail("missing " + what);
    if (!core::parse_integer(w[i], v)) fail("expected an integer for " + what + ", found '" + w[i] + "'");
    return v;
  }
  void consumed(std::size_t n) { pos_ = n; }

 private:
  void split(const std::string& text) {
    words_.clear();
    pos_ = 0;
    std::istringstream s(text);
    for (std::string w; s >> w;) words_.push_back(w);
  }

  std::filesystem::path path_;
  std::ifstream in_;
  int line_ = 0;
  std::vector<std::string> words_;
  std::size_t pos_ = 0;
};

// "Nrho drho Nr dr cutoff", shared by both formats.
template <class T>
void read_grid(Reader& r, T& out) {
  const auto w = r.line("the grid line 'Nrho drho Nr dr cutoff'");
  if (w.size() != 5) r.fail("expected 5 values 'Nrho drho Nr dr cutoff', found " + std::to_string(w.size()));
  const long long nrho = r.integer(w, 0, "Nrho"), nr = r.integer(w, 2, "Nr");
  out.drho = r.number(w, 1, "drho");
  out.dr = r.number(w, 3, "dr");
  out.cutoff = r.number(w, 4, "the cutoff");
  if (nrho < 5 || nr < 5) r.fail("Nrho and Nr must be at least 5 (found " + w[0] + " and " + w[2] + ")");
  if (nrho > 10000000 || nr > 10000000) r.fail("table sizes above 10^7 points are not plausible");
  if (!(out.drho > 0.0) || !(out.dr > 0.0) || !(out.cutoff > 0.0)) r.fail("drho, dr and the cutoff must be positive");
  out.nrho = static_cast<int>(nrho);
  out.nr = static_cast<int>(nr);
  r.consumed(5);
}

}  // namespace

Funcfl read_funcfl(const std::filesystem::path& path) {
  Reader r(path);
  Funcfl f;
  f.path = path.string();
  r.skip_line("the comment line");
  const auto head = r.line("'atomic-number mass lattice-constant lattice-type'");
  f.atomic_number = static_cast<int>(r.integer(head, 0, "the atomic number"));
  f.mass = r.number(head, 1, "the mass");
  if (!(f.mass > 0.0)) r.fail("the mass must be positive");
  r.consumed(head.size());
  read_grid(r, f);
  f.frho = r.values(static_cast<std::size_t>(f.nrho), "F(rho)");
  f.zr = r.values(static_cast<std::size_t>(f.nr), "Z(r)");
  f.rhor = r.values(static_cast<std::size_t>(f.nr), "rho(r)");
  return f;
}

Setfl read_setfl(const std::filesystem::path& path) {
  Reader r(path);
  Setfl s;
  s.path = path.string();
  for (int k = 0; k < 3; ++k) r.skip_line("comment line " + std::to_string(k + 1));
  const auto head = r.line("'Nelements Element1 Element2 ...'");
  const long long n = r.integer(head, 0, "the number of elements");
  if (n < 1 || n > 100) r.fail("the number of elements must be 1..100, found " + head.at(0));
  if (head.size() != static_cast<std::size_t>(n) + 1)
    r.fail("expected " + std::to_string(n) + " element names after the count, found " + std::to_string(head.size() - 1));
  s.elements.assign(head.begin() + 1, head.end());
  r.consumed(head.size());
  read_grid(r, s);
  for (long long e = 0; e < n; ++e) {
    const std::string& name = s.elements[static_cast<std::size_t>(e)];
    const auto w = r.line("the header line of element " + name);
    s.masses.push_back(r.number(w, 1, "the mass of " + name));
    if (!(s.masses.back() > 0.0)) r.fail("the mass of " + name + " must be positive");
    r.consumed(w.size());
    s.frho.push_back(r.values(static_cast<std::size_t>(s.nrho), "F(rho) of " + name));
    s.rhor.push_back(r.values(static_cast<std::size_t>(s.nr), "rho(r) of " + name));
  }
  s.z2r.resize(static_cast<std::size_t>(n));
  for (long long i = 0; i < n; ++i)
    for (long long j = 0; j <= i; ++j)
      s.z2r[static_cast<std::size_t>(i)].push_back(r.values(
          static_cast<std::size_t>(s.nr), "r*phi(r) of " + s.elements[static_cast<std::size_t>(i)] + "-" +
                                              s.elements[static_cast<std::size_t>(j)]));
  return s;
}

}  // namespace molstep::io
