// SPDX-License-Identifier: MIT
#include "molstep/fullerene/spiral.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <deque>
#include <stdexcept>

#include "molstep/core/error.hpp"

namespace molstep::fullerene {
namespace {

constexpr int kLargestFullerene = 65534;

/// A neighbour list that grows at both ends while the spiral winds up; a vertex gets at most
/// six neighbours, so starting in the middle of twelve slots leaves room either way.
struct Fan {
  std::array<int, 12> slot{};
  int lo = 6, hi = 6;
  void push_front(int v) { slot[--lo] = v; }
  void push_back(int v) { slot[hi++] = v; }
};

/// The order canonical names minimise (Wirz et al.): fewest jumps, then the jump list, then the
/// pentagons. Between face spirals it is the classical order of pentagon vectors.
bool precedes(const Spiral& a, const Spiral& b) {
  if (a.jumps.size() != b.jumps.size()) return a.jumps.size() < b.jumps.size();
  if (a.jumps != b.jumps) return a.jumps < b.jumps;
  return a.pentagons < b.pentagons;
}

/// The state of a spiral walk over a triangulation, reused across starts.
struct Walk {
  std::vector<char> placed;
  std::vector<int> open;      // free edges left at each placed vertex
  std::vector<int> boundary;  // open vertices, oldest first from boundary[head]; a jump moves the oldest to the end
  std::vector<int> order;     // vertices placed so far
  Spiral found;               // the pentagons and jumps of the last walk
};

enum class Outcome { spiral, stuck, beaten };

/// Whether placing v would cut the unplaced vertices in two: its unplaced neighbours form more
/// than one run round it. One run keeps them together; with two, a path through the placed
/// vertices (which stay connected) joins v's placed neighbours between the runs into a cycle
/// through v that separates them.
bool splits_unplaced(const Triangulation& t, const std::vector<char>& placed, int v) {
  const int d = t.degree[v];
  int runs = 0;
  for (int j = 0; j < d; ++j) runs += !placed[t.adj[v][j]] && placed[t.adj[v][(j + d - 1) % d]];
  return runs > 1;
}

/// Runs one spiral into w.found. A face spiral (jumps false) is stuck where the next face would
/// cut the faces still to place in two; a general spiral jumps there instead, so it is never
/// stuck on a fullerene. With `bound`, the walk is beaten as soon as it is sure to come after
/// *bound in `precedes` order: by its pentagons when it cannot jump, by its jump count when it can.
Outcome walk_spiral(const Triangulation& t, int first, int second, bool clockwise, bool jumps, const Spiral* bound,
                    Walk& w) {
  const int n = t.size();
  for (int v : w.order) w.placed[v] = 0;
  w.order.clear();
  w.boundary.clear();
  w.found.jumps.clear();
  std::size_t head = 0;
  std::array<int, 12>& pentagons = w.found.pentagons;
  const std::array<int, 12>* best = bound != nullptr ? &bound->pentagons : nullptr;
  int found = 0;
  bool tied = bound != nullptr && !jumps;
  // Places v at the next position; false when that loses against the bound.
  auto place = [&](int v) {
    w.placed[v] = 1;
    w.order.push_back(v);
    const int position = static_cast<int>(w.order.size());
    if (t.degree[v] == 5) {
      if (tied && position > (*best)[found]) return false;
      if (tied && position < (*best)[found]) tied = false;
      pentagons[found++] = position;
    } else if (tied && found < 12 && position >= (*best)[found]) {
      return false;
    }
    return true;
  };
  if (!place(first) || !place(second)) return Outcome::beaten;
  w.open[first] = t.degree[first] - 1;
  w.open[second] = t.degree[second] - 1;
  w.boundary.push_back(first);
  w.boundary.push_back(second);
  // The face across the edge from the newest open face to the oldest: the one placed next.
  auto next_face = [&] {
    const int front = w.boundary[head], back = w.boundary.back();
    return clockwise ? t.next(front, back) : t.prev(front, back);
  };
  for (int k = 2; k < n; ++k) {
    int m = next_face();
    if (jumps && k < n - 1) {
      int skipped = 0;
      while (splits_unplaced(t, w.placed, m)) {
        // Moving every open face round would bring the spiral back where it was.
        if (++skipped == static_cast<int>(w.boundary.size() - head)) return Outcome::stuck;
        w.boundary.push_back(w.boundary[head++]);
        m = next_face();
      }
      if (skipped > 0) {
        w.found.jumps.push_back({k + 1, skipped});
        if (bound != nullptr && w.found.jumps.size() > bound->jumps.size()) return Outcome::beaten;
      }
    }
    if (w.placed[m]) return Outcome::stuck;
    if (!place(m)) return Outcome::beaten;
    if (k == n - 1) break;  // the last face closes the cage: the open faces are its neighbours
    // Make the connections the wind-up would make, checking that each is an edge of t.
    const int front = w.boundary[head], back = w.boundary.back();
    int links = 2;
    --w.open[front];
    --w.open[back];
    while (w.open[w.boundary[head]] == 0) {
      if (w.boundary.size() - head < 3 || t.arc_index(m, w.boundary[head + 1]) < 0) return Outcome::stuck;
      --w.open[w.boundary[++head]];
      ++links;
    }
    while (w.open[w.boundary.back()] == 0) {
      w.boundary.pop_back();
      if (w.boundary.size() - head < 2 || t.arc_index(m, w.boundary.back()) < 0) return Outcome::stuck;
      --w.open[w.boundary.back()];
      ++links;
    }
    int placed_neighbours = 0;
    for (int j = 0; j < t.degree[m]; ++j) placed_neighbours += w.placed[t.adj[m][j]];
    if (placed_neighbours != links || links >= t.degree[m]) return Outcome::stuck;
    w.open[m] = t.degree[m] - links;
    w.boundary.push_back(m);
  }
  return Outcome::spiral;
}

Walk walk_for(const Triangulation& t) {
  Walk w;
  w.placed.assign(static_cast<std::size_t>(t.size()), 0);
  w.open.assign(static_cast<std::size_t>(t.size()), 0);
  w.boundary.reserve(static_cast<std::size_t>(t.size()));
  w.order.reserve(static_cast<std::size_t>(t.size()));
  w.found.atoms = t.atoms();
  return w;
}

[[noreturn]] void general_spiral_stuck() {
  throw std::logic_error("a general spiral got stuck: the triangulation is not the dual of a fullerene");
}

/// The first spiral in `precedes` order over the starts `starts` allows; nullopt when jumps are
/// off and no such start has a face spiral.
std::optional<Spiral> best_spiral(const Triangulation& t, SpiralStarts starts, bool jumps, Walk& w) {
  std::optional<Spiral> best;
  // Pentagon starts first: a face spiral from one begins with 1, which no hexagon start can
  // match, so hexagon starts only matter when none has one or when jumps count first.
  for (int degree : {5, 6}) {
    if (degree == 6 && (starts == SpiralStarts::pentagons || (best && !jumps))) break;
    for (int first = 0; first < t.size(); ++first) {
      if (t.degree[first] != degree) continue;
      for (int j = 0; j < degree; ++j)
        for (bool clockwise : {true, false}) {
          const Outcome o = walk_spiral(t, first, t.adj[first][j], clockwise, jumps, best ? &*best : nullptr, w);
          if (o == Outcome::stuck && jumps) general_spiral_stuck();
          if (o == Outcome::spiral && (!best || precedes(w.found, *best))) best = w.found;
        }
    }
  }
  return best;
}

void check_start(const Triangulation& t, int first, int second) {
  if (first < 0 || first >= t.size() || t.arc_index(first, second) < 0)
    throw Error("spiral start: face " + std::to_string(second) + " is not a neighbour of face " +
                std::to_string(first));
}

}  // namespace

Triangulation triangulation_from_spiral(const Spiral& spiral) {
  const int n_atoms = spiral.atoms;
  const std::string name = format_spiral(spiral);
  auto invalid = [&](const std::string& why) { throw Error("spiral " + name + ": " + why); };
  auto open_cage = [&](const std::string& why) {
    throw Error("spiral " + name + " does not close to a fullerene: " + why);
  };
  if (n_atoms % 2 != 0) invalid("the number of atoms must be even");
  if (n_atoms < 20) invalid("the smallest fullerene is C20");
  if (n_atoms == 22) invalid("there is no fullerene C22");
  if (n_atoms > kLargestFullerene)
    invalid("molstep handles fullerenes up to C" + std::to_string(kLargestFullerene) +
            " (planar_code and the GPU code number atoms in 16 bits)");
  const int n = n_atoms / 2 + 2;
  std::vector<int> open(static_cast<std::size_t>(n), 6);
  for (int i = 0; i < 12; ++i) {
    const int p = spiral.pentagons[i];
    if (p < 1 || p > n) invalid("pentagon position " + std::to_string(p) + " is outside 1.." + std::to_string(n));
    if (i > 0 && p <= spiral.pentagons[i - 1]) invalid("pentagon positions must increase");
    open[p - 1] = 5;
  }
  // The first three faces are placed before any jump can matter, and the last fills the hole
  // wherever the boundary starts.
  for (std::size_t i = 0; i < spiral.jumps.size(); ++i) {
    const Jump& j = spiral.jumps[i];
    if (j.position < 3 || j.position > n - 1)
      invalid("jump position " + std::to_string(j.position) + " is outside 3.." + std::to_string(n - 1));
    if (i > 0 && j.position <= spiral.jumps[i - 1].position) invalid("jump positions must increase");
    if (j.length < 1)
      invalid("the jump at position " + std::to_string(j.position) + " has length " + std::to_string(j.length) +
              ", not at least 1");
  }
  const std::vector<int> degree = open;
  auto face = [](int v) { return "face " + std::to_string(v + 1); };

  // Vertex 0 must list 1, 2, 3, ...: a front vertex gains neighbours at the end of its list,
  // the back vertex at the start, and the new vertex takes the fronts before and the backs
  // after what it has. Each open vertex's list thus ends towards the open vertex before it in
  // the cyclic boundary and starts towards the one after it, which a jump (a rotation of the
  // boundary) leaves true.
  std::vector<Fan> fan(static_cast<std::size_t>(n));
  auto link = [&](int k, int v, bool v_is_front) {
    if (--open[k] < 0) open_cage(face(k) + " needs more than " + std::to_string(degree[k]) + " neighbours");
    --open[v];
    if (v_is_front) {
      fan[v].push_back(k);
      fan[k].push_front(v);
    } else {
      fan[v].push_front(k);
      fan[k].push_back(v);
    }
  };
  fan[0].push_back(1);
  fan[1].push_back(0);
  --open[0];
  --open[1];
  std::deque<int> boundary{0, 1};
  auto jump = spiral.jumps.begin();
  for (int k = 2; k < n - 1; ++k) {
    if (jump != spiral.jumps.end() && jump->position == k + 1) {
      if (jump->length >= static_cast<int>(boundary.size()))
        open_cage("the jump at " + face(k) + " moves " + std::to_string(jump->length) + " faces but only " +
                  std::to_string(boundary.size()) + " are open");
      std::rotate(boundary.begin(), boundary.begin() + jump->length, boundary.end());
      ++jump;
    }
    link(k, boundary.back(), false);
    link(k, boundary.front(), true);
    while (open[boundary.front()] == 0) {
      boundary.pop_front();
      if (boundary.size() < 2) open_cage("the cage closes at " + face(k) + " of " + std::to_string(n));
      link(k, boundary.front(), true);
    }
    while (open[boundary.back()] == 0) {
      boundary.pop_back();
      if (boundary.size() < 2) open_cage("the cage closes at " + face(k) + " of " + std::to_string(n));
      link(k, boundary.back(), false);
    }
    if (open[k] == 0) open_cage("the cage closes at " + face(k) + " of " + std::to_string(n));
    boundary.push_back(k);
  }
  // The last face fills the hole left: its neighbours are the open faces, taken backwards.
  // Each new face joined a contiguous run of distinct boundary faces, so the result is a
  // simple triangulation of the sphere with the degrees asked for.
  const int last = n - 1;
  if (static_cast<int>(boundary.size()) != degree[last])
    open_cage("the last face has " + std::to_string(degree[last]) + " edges but the hole it must fill has " +
              std::to_string(boundary.size()));
  for (auto it = boundary.rbegin(); it != boundary.rend(); ++it) {
    if (open[*it] != 1)
      open_cage(face(*it) + " has " + std::to_string(open[*it]) + " free edges left for the last face, not 1");
    fan[*it].push_back(last);
    fan[last].push_back(*it);
    --open[*it];
  }

  Triangulation t;
  t.adj.assign(static_cast<std::size_t>(n), {-1, -1, -1, -1, -1, -1});
  t.degree.resize(static_cast<std::size_t>(n));
  for (int v = 0; v < n; ++v) {
    t.degree[v] = static_cast<std::uint8_t>(fan[v].hi - fan[v].lo);
    for (int j = fan[v].lo; j < fan[v].hi; ++j) t.adj[v][j - fan[v].lo] = fan[v].slot[j];
  }
  return t;
}

Triangulation triangulation_from_spiral(int n_atoms, const std::array<int, 12>& pentagons) {
  return triangulation_from_spiral(Spiral{n_atoms, pentagons});
}

std::optional<std::array<int, 12>> spiral_from(const Triangulation& t, int first, int second, bool clockwise) {
  check_start(t, first, second);
  Walk w = walk_for(t);
  if (walk_spiral(t, first, second, clockwise, false, nullptr, w) != Outcome::spiral) return std::nullopt;
  return w.found.pentagons;
}

Spiral general_spiral_from(const Triangulation& t, int first, int second, bool clockwise) {
  check_start(t, first, second);
  Walk w = walk_for(t);
  if (walk_spiral(t, first, second, clockwise, true, nullptr, w) != Outcome::spiral) general_spiral_stuck();
  return w.found;
}

std::optional<std::array<int, 12>> canonical_spiral(const Triangulation& t) {
  Walk w = walk_for(t);
  const auto best = best_spiral(t, SpiralStarts::every_face, false, w);
  if (!best) return std::nullopt;
  return best->pentagons;
}

Spiral canonical_general_spiral(const Triangulation& t, SpiralStarts starts) {
  Walk w = walk_for(t);
  // Any face spiral precedes every spiral with jumps, and face spirals are cheap to rule out.
  if (auto best = best_spiral(t, starts, false, w)) return *best;
  return *best_spiral(t, starts, true, w);
}

namespace {

/// Reads a spiral name left to right; a failure says what was expected where.
class NameReader {
 public:
  NameReader(std::string_view text, std::string usage) : text_(text), usage_(std::move(usage)) {}

  [[noreturn]] void fail(const std::string& why) const {
    throw Error("bad spiral '" + std::string(text_) + "': " + why + " (expected " + usage_ + ")");
  }
  [[nodiscard]] std::string here() const { return "at character " + std::to_string(at_ + 1); }
  /// The next character after blanks, or '\0' at the end.
  char peek() {
    while (at_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[at_]))) ++at_;
    return at_ < text_.size() ? text_[at_] : '\0';
  }
  bool take(char c) {
    if (peek() != c) return false;
    ++at_;
    return true;
  }
  /// Takes `word` in any case.
  bool take_word(std::string_view word) {
    peek();
    if (text_.size() - at_ < word.size()) return false;
    for (std::size_t i = 0; i < word.size(); ++i)
      if (std::tolower(static_cast<unsigned char>(text_[at_ + i])) != word[i]) return false;
    at_ += word.size();
    return true;
  }
  /// Letters and digits, such as a point group or a scheme.
  std::string word() {
    peek();
    const std::size_t start = at_;
    while (at_ < text_.size() && std::isalnum(static_cast<unsigned char>(text_[at_]))) ++at_;
    return std::string(text_.substr(start, at_ - start));
  }
  bool starts_number() {
    const char c = peek();
    const bool minus = c == '-' && at_ + 1 < text_.size();
    return std::isdigit(static_cast<unsigned char>(minus ? text_[at_ + 1] : c)) != 0;
  }
  int number(const std::string& what) {
    peek();
    int value = 0;
    const auto [end, ec] = std::from_chars(text_.data() + at_, text_.data() + text_.size(), value);
    if (ec != std::errc() || end == text_.data() + at_) fail("expected " + what + " " + here());
    at_ = static_cast<std::size_t>(end - text_.data());
    return value;
  }
  /// Numbers separated by commas or blanks; a comma may also end the list.
  std::vector<int> numbers() {
    std::vector<int> list;
    while (starts_number()) {
      list.push_back(number("a number"));
      if (take(',') && !starts_number() && peek() != ';' && peek() != ']' && peek() != '\0')
        fail("expected a number " + here());
    }
    return list;
  }

 private:
  std::string_view text_;
  std::string usage_;
  std::size_t at_ = 0;
};

/// "[j1,l1,...;] p1,...,p12" up to `end` ('\0': the end of the text).
void read_jumps_and_pentagons(NameReader& in, char end, Spiral& s) {
  std::vector<int> list = in.numbers();
  if (in.take(';')) {
    if (list.size() % 2 != 0)
      in.fail("the jumps before ';' must be pairs position,length, but there are " + std::to_string(list.size()) +
              " numbers");
    for (std::size_t i = 0; i < list.size(); i += 2) s.jumps.push_back({list[i], list[i + 1]});
    list = in.numbers();
  }
  const char next = in.peek();
  if (next == ';') in.fail("a second ';' " + in.here() + " (only the jumps end with ';')");
  if (next != end) {
    if (end == ']') in.fail("expected ']' after the pentagon positions " + in.here());
    in.fail(std::string("unexpected '") + next + "' " + in.here());
  }
  if (list.size() != 12) in.fail("it has " + std::to_string(list.size()) + " pentagon positions, not 12");
  std::copy(list.begin(), list.end(), s.pentagons.begin());
}

/// molstep's form: [C]N: [jumps;] pentagons.
Spiral parse_molstep_name(std::string_view text) {
  NameReader in(text,
                "N:p1,...,p12 such as 60:1,7,9,11,13,15,18,20,22,24,26,32, or with jumps N:j1,l1,...;p1,...,p12");
  Spiral s;
  if (!in.take('C')) in.take('c');
  s.atoms = in.number("the number of atoms");
  if (!in.take(':')) in.fail("expected ':' after the number of atoms");
  read_jumps_and_pentagons(in, '\0', s);
  return s;
}

/// Wirz et al.'s form: [PG-][[GS: | CS:][jumps;] pentagons]-CN[-fullerene].
Spiral parse_published_name(std::string_view text) {
  NameReader in(text, "[GS: j1,l1,...; p1,...,p12]-CN-fullerene, the jumps and ';' only if there are any");
  Spiral s;
  if (in.peek() != '[') {
    // The point group is redundant (the graph determines it) and molstep does not compute it.
    if (in.word().empty() || !in.take('-')) in.fail("expected '[' or a point group and '-' " + in.here());
  }
  if (!in.take('[')) in.fail("expected '[' " + in.here());
  if (std::isalpha(static_cast<unsigned char>(in.peek()))) {
    const std::string scheme = in.word();
    if (scheme != "GS" && scheme != "CS") in.fail("unknown spiral scheme '" + scheme + "' (known: GS, CS)");
    if (!in.take(':')) in.fail("expected ':' after " + scheme + " " + in.here());
  }
  read_jumps_and_pentagons(in, ']', s);
  in.take(']');
  if (!in.take('-') || !(in.take('C') || in.take('c')))
    in.fail("expected '-C' and the number of atoms after ']' " + in.here());
  s.atoms = in.number("the number of atoms");
  if (in.take('-') && !in.take_word("fullerene")) in.fail("expected 'fullerene' " + in.here());
  if (in.peek() != '\0') in.fail("unexpected text " + in.here());
  return s;
}

void append_list(std::string& s, const std::vector<int>& numbers) {
  for (std::size_t i = 0; i < numbers.size(); ++i) {
    if (i > 0) s += ',';
    s += std::to_string(numbers[i]);
  }
}

}  // namespace

Spiral parse_spiral(std::string_view text) {
  return text.find('[') == std::string_view::npos ? parse_molstep_name(text) : parse_published_name(text);
}

std::string format_spiral(const Spiral& spiral) {
  std::string s = std::to_string(spiral.atoms) + ":";
  if (!spiral.jumps.empty()) {
    std::vector<int> pairs;
    for (const Jump& j : spiral.jumps) pairs.insert(pairs.end(), {j.position, j.length});
    append_list(s, pairs);
    s += ';';
  }
  append_list(s, {spiral.pentagons.begin(), spiral.pentagons.end()});
  return s;
}

}  // namespace molstep::fullerene
