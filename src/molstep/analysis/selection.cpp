// SPDX-License-Identifier: MIT
#include "molstep/analysis/selection.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <charconv>
#include <iterator>
#include <limits>
#include <memory>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "molstep/core/error.hpp"

namespace molstep::analysis {

namespace {

// Every reserved word, in the order error messages list them. A bare word that is not one of
// these must name an earlier selection.
constexpr std::array<std::string_view, 14> keywords = {"all",   "none",  "type",    "name",  "resname",
                                                       "resid", "index", "bynum",   "element", "protein",
                                                       "water", "not",   "and",     "or"};

// Residue names `protein` matches: the 20 standard amino acids, protonation and disulfide variants
// (CHARMM, AMBER, GROMACS/OPLS/GROMOS spellings), AMBER's charged N-/C-terminal residues, common
// modified residues and terminal caps. Kept in step with docs/analysis.md.
constexpr std::string_view protein_residues[] = {
    // standard
    "ALA", "ARG", "ASN", "ASP", "CYS", "GLN", "GLU", "GLY", "HIS", "ILE", "LEU", "LYS", "MET", "PHE", "PRO",
    "SER", "THR", "TRP", "TYR", "VAL",
    // histidine tautomers / protonation states
    "HSD", "HSE", "HSP", "HID", "HIE", "HIP", "HISD", "HISE", "HISH", "HISA", "HISB", "HIS1", "HIS2",
    // other protonation states and disulfides
    "ASH", "ASPH", "GLH", "GLUH", "LYN", "LYSH", "ARGN", "CYX", "CYM", "CYS1", "CYS2", "CYSH", "ASN1", "QLN",
    // modified residues
    "MSE", "HYP", "ORN", "DAB", "PGLU", "ALAD", "ASF",
    // caps
    "ACE", "NME", "NMA", "NH2",
    // AMBER charged N-terminal residues
    "NALA", "NARG", "NASN", "NASP", "NCYS", "NCYX", "NGLN", "NGLU", "NGLY", "NHID", "NHIE", "NHIP", "NILE",
    "NLEU", "NLYS", "NMET", "NPHE", "NPRO", "NSER", "NTHR", "NTRP", "NTYR", "NVAL",
    // AMBER charged C-terminal residues
    "CALA", "CARG", "CASN", "CASP", "CCYS", "CCYX", "CGLN", "CGLU", "CGLY", "CHID", "CHIE", "CHIP", "CILE",
    "CLEU", "CLYS", "CMET", "CPHE", "CPRO", "CSER", "CTHR", "CTRP", "CTYR", "CVAL", "CASF"};

// Residue names `water` matches (GROMACS, AMBER, CHARMM, PDB spellings).
constexpr std::string_view water_residues[] = {
    "SOL",  "WAT",   "HOH",   "H2O",   "HHO", "OHH", "OH2",  "DOD", "TIP",  "TIP2", "TIP3", "TIP4",
    "TIP5", "TIP3P", "TIP4P", "TIP5P", "T3P", "T4P", "T5P",  "TP3", "SPC",  "SPCE", "OPC",  "OPC3"};

bool is_keyword(std::string_view word) {
  return std::find(keywords.begin(), keywords.end(), word) != keywords.end();
}

std::string known_keywords() {
  std::string s;
  for (const auto k : keywords) {
    if (!s.empty()) s += ", ";
    s += k;
  }
  return s;
}

// Glob match with `*` (any run, also empty) and `?` (one character). Greedy with one backtrack
// point, so it is linear-ish in practice and never exponential.
bool glob_match(std::string_view pattern, std::string_view text) {
  std::size_t p = 0, t = 0;
  std::size_t star = std::string_view::npos, resume = 0;
  while (t < text.size()) {
    if (p < pattern.size() && (pattern[p] == '?' || pattern[p] == text[t])) {
      ++p;
      ++t;
    } else if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      resume = t;
    } else if (star != std::string_view::npos) {
      p = star + 1;
      t = ++resume;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

// Atoms as bits, 64 to a word: and/or/not run a word at a time, and the indices come out sorted
// and unique for free.
class Mask {
 public:
  explicit Mask(std::size_t n, bool value = false) : n_(n), words_((n + 63) / 64, value ? ~std::uint64_t{0} : 0) {
    trim();
  }
  void set(std::size_t i) { words_[i >> 6] |= std::uint64_t{1} << (i & 63); }
  void set_range(std::size_t lo, std::size_t hi) {  // [lo, hi], both < n; whole words where possible
    std::size_t i = lo;
    while (i <= hi && (i & 63) != 0) set(i++);
    for (; i + 63 <= hi; i += 64) words_[i >> 6] = ~std::uint64_t{0};
    while (i <= hi) set(i++);
  }
  Mask& operator&=(const Mask& o) {
    for (std::size_t w = 0; w < words_.size(); ++w) words_[w] &= o.words_[w];
    return *this;
  }
  Mask& operator|=(const Mask& o) {
    for (std::size_t w = 0; w < words_.size(); ++w) words_[w] |= o.words_[w];
    return *this;
  }
  void flip() {
    for (auto& w : words_) w = ~w;
    trim();
  }
  // Sets bit i where pred(i) holds; packs 64 results per word to avoid a read-modify-write per atom.
  template <class Pred>
  void set_where(Pred pred) {
    for (std::size_t w = 0; w < words_.size(); ++w) {
      const std::size_t base = w * 64;
      const std::size_t end = std::min<std::size_t>(64, n_ - base);
      std::uint64_t bits = 0;
      for (std::size_t b = 0; b < end; ++b) bits |= static_cast<std::uint64_t>(pred(base + b) ? 1 : 0) << b;
      words_[w] |= bits;
    }
  }
  [[nodiscard]] std::vector<std::uint32_t> indices() const {
    std::size_t count = 0;
    for (const auto w : words_) count += static_cast<std::size_t>(std::popcount(w));
    std::vector<std::uint32_t> out(count);
    std::uint32_t* dst = out.data();
    for (std::size_t w = 0; w < words_.size(); ++w) {
      for (std::uint64_t bits = words_[w]; bits != 0; bits &= bits - 1) {
        *dst++ = static_cast<std::uint32_t>(w * 64 + static_cast<std::size_t>(std::countr_zero(bits)));
      }
    }
    return out;
  }

 private:
  // Bits past the last atom stay clear so that `not` and indices() never see phantom atoms.
  void trim() {
    if (n_ % 64 != 0 && !words_.empty()) words_.back() &= (std::uint64_t{1} << (n_ % 64)) - 1;
  }
  std::size_t n_;
  std::vector<std::uint64_t> words_;
};

struct Token {
  std::string text;
  std::size_t column;  // 1-based, as users count
};

std::vector<Token> tokenize(const std::string& expr) {
  std::vector<Token> tokens;
  std::size_t i = 0;
  while (i < expr.size()) {
    const char c = expr[i];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      ++i;
    } else if (c == '(' || c == ')') {
      tokens.push_back({std::string(1, c), i + 1});
      ++i;
    } else {
      const std::size_t start = i;
      while (i < expr.size() && expr[i] != ' ' && expr[i] != '\t' && expr[i] != '\n' && expr[i] != '\r' &&
             expr[i] != '(' && expr[i] != ')') {
        ++i;
      }
      tokens.push_back({expr.substr(start, i - start), start + 1});
    }
  }
  return tokens;
}

std::string at_column(std::size_t column) { return " at column " + std::to_string(column); }

// The syntax tree of one expression: parsed completely before anything is evaluated so that a
// syntax error is reported before a missing-topology error further left.
struct Node {
  enum class Kind { all, none, keyword, ref, not_, and_, or_ };
  Kind kind = Kind::all;
  std::string keyword;        // for Kind::keyword (and protein/water)
  std::size_t column = 0;     // of the keyword / operator
  std::vector<Token> values;  // for Kind::keyword
  int ref = -1;               // for Kind::ref
  std::unique_ptr<Node> a, b;
};

// A closed integer range [lo, hi] from `a`, `a-b` or `a:b`.
struct Range {
  std::int64_t lo;
  std::int64_t hi;
};

bool parse_int(std::string_view s, std::int64_t& out) {
  if (s.empty()) return false;
  const auto* first = s.data();
  const auto* last = s.data() + s.size();
  const auto [ptr, ec] = std::from_chars(first, last, out);
  return ec == std::errc{} && ptr == last;
}

// Splits "a-b" / "a:b" where either number may carry a leading minus ("-5--1"); false when the
// text is not one or two integers.
bool parse_range(std::string_view s, Range& out) {
  std::int64_t v = 0;
  if (parse_int(s, v)) {
    out = {v, v};
    return true;
  }
  for (std::size_t k = 1; k < s.size(); ++k) {
    if (s[k] != '-' && s[k] != ':') continue;
    std::int64_t lo = 0, hi = 0;
    if (parse_int(s.substr(0, k), lo) && parse_int(s.substr(k + 1), hi)) {
      out = {lo, hi};
      return true;
    }
  }
  return false;
}

// Sorted, merged ranges with a binary search: `resid 1 2 3 ... 5000` stays O(natoms log k).
class RangeSet {
 public:
  explicit RangeSet(std::vector<Range> ranges) : ranges_(std::move(ranges)) {
    std::sort(ranges_.begin(), ranges_.end(), [](const Range& x, const Range& y) { return x.lo < y.lo; });
    std::vector<Range> merged;
    for (const auto& r : ranges_) {
      // Adjacent ranges merge too; the max check keeps hi + 1 from overflowing.
      if (!merged.empty() && (r.lo <= merged.back().hi ||
                              (merged.back().hi < std::numeric_limits<std::int64_t>::max() &&
                               r.lo == merged.back().hi + 1))) {
        merged.back().hi = std::max(merged.back().hi, r.hi);
      } else {
        merged.push_back(r);
      }
    }
    ranges_ = std::move(merged);
  }
  [[nodiscard]] bool contains(std::int64_t v) const {
    if (ranges_.size() == 1) return v >= ranges_[0].lo && v <= ranges_[0].hi;
    const auto it =
        std::upper_bound(ranges_.begin(), ranges_.end(), v, [](std::int64_t x, const Range& r) { return x < r.lo; });
    return it != ranges_.begin() && v <= std::prev(it)->hi;
  }

 private:
  std::vector<Range> ranges_;
};

}  // namespace

class SelectionSet::Parser {
 public:
  Parser(SelectionSet& set, const std::string& name, const std::string& expression)
      : set_(set), name_(name), expression_(expression), tokens_(tokenize(expression)) {}

  Mask run() {
    if (tokens_.empty()) fail("empty expression; write e.g. 'all' or 'name OW'");
    auto root = parse_or();
    if (pos_ < tokens_.size()) {
      const Token& t = tokens_[pos_];
      if (t.text == ")") fail("unbalanced parentheses: ')'" + at_column(t.column) + " has no matching '('");
      fail("expected 'and' or 'or' before '" + t.text + "'" + at_column(t.column));
    }
    return eval(*root);
  }

 private:
  [[noreturn]] void fail(const std::string& message) const {
    // Anonymous selections are named by their text; quoting it twice would only add noise.
    const std::string head = name_ == expression_ ? "selection '" + name_ + "': "
                                                  : "selection '" + name_ + "': '" + expression_ + "': ";
    throw Error(head + message);
  }

  [[nodiscard]] const Token* peek() const { return pos_ < tokens_.size() ? &tokens_[pos_] : nullptr; }
  [[nodiscard]] bool peek_is(std::string_view word) const {
    const Token* t = peek();
    return t != nullptr && t->text == word;
  }

  // A binary operator must have a selection on its right: not the end, `)`, or another operator.
  void need_operand_after(const Token& op) const {
    const Token* t = peek();
    if (t == nullptr || t->text == ")" || t->text == "and" || t->text == "or") {
      fail("'" + op.text + "'" + at_column(op.column) + " needs a selection after it");
    }
  }

  std::unique_ptr<Node> binary(Node::Kind kind, const Token& op, std::unique_ptr<Node> a, std::unique_ptr<Node> b) {
    auto n = std::make_unique<Node>();
    n->kind = kind;
    n->column = op.column;
    n->a = std::move(a);
    n->b = std::move(b);
    return n;
  }

  // Precedence as in MDAnalysis: not > and > or.
  std::unique_ptr<Node> parse_or() {
    auto left = parse_and();
    while (peek_is("or")) {
      const Token op = tokens_[pos_++];
      need_operand_after(op);
      left = binary(Node::Kind::or_, op, std::move(left), parse_and());
    }
    return left;
  }

  std::unique_ptr<Node> parse_and() {
    auto left = parse_not();
    while (peek_is("and")) {
      const Token op = tokens_[pos_++];
      need_operand_after(op);
      left = binary(Node::Kind::and_, op, std::move(left), parse_not());
    }
    return left;
  }

  std::unique_ptr<Node> parse_not() {
    if (!peek_is("not")) return parse_primary();
    const Token op = tokens_[pos_++];
    need_operand_after(op);
    auto n = std::make_unique<Node>();
    n->kind = Node::Kind::not_;
    n->column = op.column;
    n->a = parse_not();
    return n;
  }

  std::unique_ptr<Node> parse_primary() {
    const Token* tp = peek();
    if (tp == nullptr) fail("expression ends where a selection was expected");
    const Token t = *tp;
    ++pos_;
    if (t.text == "(") {
      if (peek_is(")")) fail("empty parentheses" + at_column(t.column));
      if (peek() == nullptr) fail("unbalanced parentheses: '('" + at_column(t.column) + " is never closed");
      auto inner = parse_or();
      const Token* close = peek();
      if (close == nullptr) fail("unbalanced parentheses: '('" + at_column(t.column) + " is never closed");
      if (close->text != ")") {
        fail("expected 'and', 'or' or ')' before '" + close->text + "'" + at_column(close->column));
      }
      ++pos_;
      return inner;
    }
    if (t.text == ")") fail("unbalanced parentheses: ')'" + at_column(t.column) + " has no matching '('");
    if (t.text == "and" || t.text == "or") fail("'" + t.text + "'" + at_column(t.column) + " needs a selection before it");

    auto n = std::make_unique<Node>();
    n->column = t.column;
    n->keyword = t.text;
    if (t.text == "all" || t.text == "none") {
      n->kind = t.text == "all" ? Node::Kind::all : Node::Kind::none;
      return n;
    }
    if (t.text == "protein" || t.text == "water") {
      n->kind = Node::Kind::keyword;
      return n;
    }
    if (is_keyword(t.text)) {  // a keyword that takes values
      n->kind = Node::Kind::keyword;
      // Values run until the next reserved word, parenthesis or the end.
      while (const Token* v = peek()) {
        if (v->text == "(" || v->text == ")" || is_keyword(v->text)) break;
        n->values.push_back(*v);
        ++pos_;
      }
      if (n->values.empty()) {
        fail("'" + t.text + "'" + at_column(t.column) + " needs at least one value, e.g. '" + example(t.text) + "'");
      }
      return n;
    }
    if (const auto it = set_.named_.find(t.text); it != set_.named_.end()) {
      n->kind = Node::Kind::ref;
      n->ref = it->second;
      return n;
    }
    std::string known = "(known: " + known_keywords();
    if (!set_.named_.empty()) {
      known += "; earlier selections:";
      for (const auto& [nm, id] : set_.named_) known += " " + nm;
    }
    fail("unknown keyword '" + t.text + "'" + at_column(t.column) + " " + known + ")");
  }

  static std::string example(const std::string& keyword) {
    if (keyword == "type") return "type 1 2 4-6";
    if (keyword == "name") return "name OW HW*";
    if (keyword == "resname") return "resname SOL";
    if (keyword == "resid") return "resid 1-10 12";
    if (keyword == "index") return "index 0-99";
    if (keyword == "bynum") return "bynum 1-100";
    return "element O H";
  }

  Mask eval(const Node& n) {
    const std::size_t natoms = set_.natoms_;
    switch (n.kind) {
      case Node::Kind::all:
        return Mask(natoms, true);
      case Node::Kind::none:
        return Mask(natoms, false);
      case Node::Kind::ref: {
        Mask m(natoms);
        for (const auto i : set_.selections_[static_cast<std::size_t>(n.ref)].indices) m.set(i);
        return m;
      }
      case Node::Kind::not_: {
        Mask m = eval(*n.a);
        m.flip();
        return m;
      }
      case Node::Kind::and_: {
        Mask m = eval(*n.a);
        m &= eval(*n.b);
        return m;
      }
      case Node::Kind::or_: {
        Mask m = eval(*n.a);
        m |= eval(*n.b);
        return m;
      }
      case Node::Kind::keyword:
        return eval_keyword(n);
    }
    return Mask(natoms);
  }

  template <class T>
  void need(const std::vector<T>& column, const std::string& keyword, const std::string& what,
            const std::string& source) const {
    if (column.empty()) fail("'" + keyword + "' needs " + what + "; load a topology with --top " + source);
    if (column.size() != set_.natoms_) {
      fail("'" + keyword + "' needs " + what + " for every atom, but the topology has " +
           std::to_string(column.size()) + " and the trajectory " + std::to_string(set_.natoms_) +
           " atoms; load the topology that matches the trajectory");
    }
  }

  std::vector<Range> numeric_values(const Node& n) const {
    std::vector<Range> out;
    for (const auto& v : n.values) {
      Range r{};
      if (!parse_range(v.text, r)) {
        fail("`" + n.keyword + "` needs numbers, found '" + v.text + "'" + at_column(v.column) +
             " (write single numbers or ranges a-b or a:b)");
      }
      if (r.lo > r.hi) {
        fail("`" + n.keyword + "` range '" + v.text + "'" + at_column(v.column) +
             " is empty (write the smaller number first)");
      }
      out.push_back(r);
    }
    return out;
  }

  // Marks atoms whose string-column value matches any of the glob patterns: each distinct value is
  // matched once, then one pass over the per-atom codes.
  Mask match_column(Column& col, const std::vector<std::string>& values, const std::vector<std::string_view>& patterns) {
    build(col, values);
    std::vector<char> hit(col.values.size(), 0);
    for (std::size_t k = 0; k < col.values.size(); ++k) {
      for (const auto p : patterns) {
        if (glob_match(p, col.values[k])) {
          hit[k] = 1;
          break;
        }
      }
    }
    Mask m(set_.natoms_);
    const auto* codes = col.codes.data();
    const auto* h = hit.data();
    m.set_where([&](std::size_t i) { return h[codes[i]] != 0; });
    return m;
  }

  static void build(Column& col, const std::vector<std::string>& values) {
    if (col.built) return;
    std::unordered_map<std::string_view, std::uint32_t> ids;
    col.codes.resize(values.size());
    // Topologies repeat short cycles of values (OW HW1 HW2 per water, the same residue name for a
    // run of atoms): a few string compares against recently seen values are much cheaper than
    // hashing every one of millions of atoms.
    constexpr std::size_t recent_size = 8;
    std::array<std::uint32_t, recent_size> recent{};
    std::size_t nrecent = 0, next_slot = 0;
    for (std::size_t i = 0; i < values.size(); ++i) {
      const std::string& v = values[i];
      bool found = false;
      for (std::size_t r = 0; r < nrecent; ++r) {
        if (col.values[recent[r]] == v) {
          col.codes[i] = recent[r];
          found = true;
          break;
        }
      }
      if (found) continue;
      const auto [it, inserted] = ids.try_emplace(v, static_cast<std::uint32_t>(col.values.size()));
      if (inserted) col.values.push_back(v);
      col.codes[i] = it->second;
      recent[next_slot] = it->second;
      next_slot = (next_slot + 1) % recent_size;
      nrecent = std::min(nrecent + 1, recent_size);
    }
    col.built = true;
  }

  Mask eval_keyword(const Node& n) {
    const std::size_t natoms = set_.natoms_;
    const auto& top = set_.topology_;
    const std::string& kw = n.keyword;
    std::vector<std::string_view> words;
    for (const auto& v : n.values) words.push_back(v.text);

    if (kw == "name") {
      need(top.name, kw, "atom names", "FILE.gro|.pdb");
      return match_column(set_.name_column_, top.name, words);
    }
    if (kw == "resname") {
      need(top.resname, kw, "residue names", "FILE.gro|.pdb");
      return match_column(set_.resname_column_, top.resname, words);
    }
    if (kw == "element") {
      need(top.element, kw, "element symbols", "FILE.pdb (with element columns)");
      return match_column(set_.element_column_, top.element, words);
    }
    if (kw == "protein" || kw == "water") {
      need(top.resname, kw, "residue names", "FILE.gro|.pdb");
      std::vector<std::string_view> list;
      if (kw == "protein") {
        list.assign(std::begin(protein_residues), std::end(protein_residues));
      } else {
        list.assign(std::begin(water_residues), std::end(water_residues));
      }
      return match_column(set_.resname_column_, top.resname, list);
    }
    if (kw == "resid") {
      const RangeSet ranges(numeric_values(n));
      need(top.resid, kw, "residue numbers", "FILE.gro|.pdb");
      Mask m(natoms);
      const auto* r = top.resid.data();
      m.set_where([&](std::size_t i) { return ranges.contains(r[i]); });
      return m;
    }
    if (kw == "type") {
      const RangeSet ranges(numeric_values(n));
      need(top.type, kw, "numeric atom types",
           "a LAMMPS data file or a LAMMPS dump with a type column");
      Mask m(natoms);
      const auto* t = top.type.data();
      m.set_where([&](std::size_t i) { return ranges.contains(t[i]); });
      return m;
    }
    // index (0-based) and bynum (1-based) need no topology; values must name existing atoms so
    // that an off-by-one or a wrong system is caught rather than silently truncated.
    const bool bynum = kw == "bynum";
    const std::int64_t first = bynum ? 1 : 0;
    const std::int64_t last = static_cast<std::int64_t>(natoms) - 1 + first;
    const auto ranges = numeric_values(n);
    Mask m(natoms);
    for (std::size_t k = 0; k < ranges.size(); ++k) {
      const Range& r = ranges[k];
      const Token& v = n.values[k];
      if (r.lo < first) {
        fail("`" + kw + "` counts atoms from " + std::to_string(first) + ", found '" + v.text + "'" +
             at_column(v.column));
      }
      if (r.hi > last) {
        fail("`" + kw + "` " + std::to_string(r.hi) + at_column(v.column) + " is beyond the last atom (" + kw + " " +
             std::to_string(last) + "; " + std::to_string(natoms) + " atoms)");
      }
      m.set_range(static_cast<std::size_t>(r.lo - first), static_cast<std::size_t>(r.hi - first));
    }
    return m;
  }

  SelectionSet& set_;
  const std::string& name_;
  const std::string& expression_;
  std::vector<Token> tokens_;
  std::size_t pos_ = 0;
};

SelectionSet::SelectionSet(core::Topology topology, std::size_t natoms)
    : topology_(std::move(topology)), natoms_(natoms) {
  // Indices are stored as 32-bit; refuse a system they cannot address rather than wrap.
  if (natoms_ > std::numeric_limits<std::uint32_t>::max()) {
    throw Error("selections support at most " + std::to_string(std::numeric_limits<std::uint32_t>::max()) +
                " atoms, the system has " + std::to_string(natoms_));
  }
}

int SelectionSet::add(const std::string& name, const std::string& expression) {
  Parser parser(*this, name, expression);
  Selection s;
  s.indices = parser.run().indices();
  s.name = name;
  s.expression = expression;
  selections_.push_back(std::move(s));
  return static_cast<int>(selections_.size() - 1);
}

int SelectionSet::define(const std::string& name, const std::string& expression) {
  if (name.empty()) throw Error("selection '" + expression + "' has no name; write NAME=EXPRESSION");
  // A name must be one word that is not reserved, or a later expression could not refer to it.
  if (name.find_first_of(" \t\n\r()") != std::string::npos) {
    throw Error("selection name '" + name + "' must be one word without spaces or parentheses");
  }
  if (is_keyword(name)) {
    throw Error("selection name '" + name + "' is a keyword of the selection language; choose another name");
  }
  if (const auto it = named_.find(name); it != named_.end()) {
    throw Error("selection '" + name + "' is defined twice (first as '" +
                selections_[static_cast<std::size_t>(it->second)].expression + "', again as '" + expression + "')");
  }
  const int id = add(name, expression);
  named_.emplace(name, id);
  return id;
}

int SelectionSet::resolve(const std::string& name_or_expression) {
  if (const auto it = named_.find(name_or_expression); it != named_.end()) return it->second;
  if (const auto it = anonymous_.find(name_or_expression); it != anonymous_.end()) return it->second;
  const int id = add(name_or_expression, name_or_expression);
  anonymous_.emplace(name_or_expression, id);
  return id;
}

}  // namespace molstep::analysis
