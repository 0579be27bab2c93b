// SPDX-License-Identifier: MIT
#include "molstep/fullerene/spiral.hpp"

#include <cctype>
#include <charconv>
#include <deque>
#include <vector>

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

/// The state of a spiral walk over a triangulation, reused across starts.
struct Walk {
  std::vector<char> placed;
  std::vector<int> open;      // free edges left at each placed vertex
  std::vector<int> boundary;  // open vertices, oldest first; the front is boundary[head]
  std::vector<int> order;     // vertices placed so far
};

/// Runs one spiral; nullopt when it runs into itself or, with `bound`, as soon as its pentagon
/// vector is sure to be lexicographically greater than *bound.
std::optional<std::array<int, 12>> walk_spiral(const Triangulation& t, int first, int second, bool clockwise,
                                               const std::array<int, 12>* bound, Walk& w) {
  const int n = t.size();
  for (int v : w.order) w.placed[v] = 0;
  w.order.clear();
  w.boundary.clear();
  std::size_t head = 0;
  std::array<int, 12> pentagons{};
  int found = 0;
  bool tied = bound != nullptr;
  // Places v at the next position; false when that loses against the bound.
  auto place = [&](int v) {
    w.placed[v] = 1;
    w.order.push_back(v);
    const int position = static_cast<int>(w.order.size());
    if (t.degree[v] == 5) {
      if (tied && position > (*bound)[found]) return false;
      if (tied && position < (*bound)[found]) tied = false;
      pentagons[found++] = position;
    } else if (tied && found < 12 && position >= (*bound)[found]) {
      return false;
    }
    return true;
  };
  if (!place(first) || !place(second)) return std::nullopt;
  w.open[first] = t.degree[first] - 1;
  w.open[second] = t.degree[second] - 1;
  w.boundary.push_back(first);
  w.boundary.push_back(second);
  for (int k = 2; k < n; ++k) {
    const int front = w.boundary[head], back = w.boundary.back();
    const int m = clockwise ? t.next(front, back) : t.prev(front, back);
    if (w.placed[m] || !place(m)) return std::nullopt;
    if (k == n - 1) break;  // the last face closes the cage: the open faces are its neighbours
    // Make the connections the wind-up would make, checking that each is an edge of t.
    int links = 2;
    --w.open[front];
    --w.open[back];
    while (w.open[w.boundary[head]] == 0) {
      if (w.boundary.size() - head < 3 || t.arc_index(m, w.boundary[head + 1]) < 0) return std::nullopt;
      --w.open[w.boundary[++head]];
      ++links;
    }
    while (w.open[w.boundary.back()] == 0) {
      w.boundary.pop_back();
      if (w.boundary.size() - head < 2 || t.arc_index(m, w.boundary.back()) < 0) return std::nullopt;
      --w.open[w.boundary.back()];
      ++links;
    }
    int placed_neighbours = 0;
    for (int j = 0; j < t.degree[m]; ++j) placed_neighbours += w.placed[t.adj[m][j]];
    if (placed_neighbours != links || links >= t.degree[m]) return std::nullopt;
    w.open[m] = t.degree[m] - links;
    w.boundary.push_back(m);
  }
  return pentagons;
}

Walk walk_for(const Triangulation& t) {
  Walk w;
  w.placed.assign(static_cast<std::size_t>(t.size()), 0);
  w.open.assign(static_cast<std::size_t>(t.size()), 0);
  w.boundary.reserve(static_cast<std::size_t>(t.size()));
  w.order.reserve(static_cast<std::size_t>(t.size()));
  return w;
}

}  // namespace

Triangulation triangulation_from_spiral(int n_atoms, const std::array<int, 12>& pentagons) {
  const std::string name = format_spiral({n_atoms, pentagons});
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
    if (pentagons[i] < 1 || pentagons[i] > n)
      invalid("pentagon position " + std::to_string(pentagons[i]) + " is outside 1.." + std::to_string(n));
    if (i > 0 && pentagons[i] <= pentagons[i - 1]) invalid("pentagon positions must increase");
    open[pentagons[i] - 1] = 5;
  }
  const std::vector<int> degree = open;
  auto face = [](int v) { return "face " + std::to_string(v + 1); };

  // Vertex 0 must list 1, 2, 3, ...: a front vertex gains neighbours at the end of its list,
  // the back vertex at the start, and the new vertex takes the fronts before and the backs
  // after what it has.
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
  for (int k = 2; k < n - 1; ++k) {
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

std::optional<std::array<int, 12>> spiral_from(const Triangulation& t, int first, int second, bool clockwise) {
  if (first < 0 || first >= t.size() || t.arc_index(first, second) < 0)
    throw Error("spiral start: face " + std::to_string(second) + " is not a neighbour of face " +
                std::to_string(first));
  Walk w = walk_for(t);
  return walk_spiral(t, first, second, clockwise, nullptr, w);
}

std::optional<std::array<int, 12>> canonical_spiral(const Triangulation& t) {
  Walk w = walk_for(t);
  std::optional<std::array<int, 12>> best;
  // Pentagon starts first: the best of them begins with 1, which no hexagon start can match,
  // so every later start stops at its first face (unless no pentagon start spirals).
  for (int degree : {5, 6})
    for (int first = 0; first < t.size(); ++first)
      if (t.degree[first] == degree)
        for (int j = 0; j < degree; ++j)
          for (bool clockwise : {true, false})
            if (auto s = walk_spiral(t, first, t.adj[first][j], clockwise, best ? &*best : nullptr, w)) best = s;
  return best;
}

Spiral parse_spiral(std::string_view text) {
  auto fail = [&](const std::string& why) {
    throw Error("bad spiral '" + std::string(text) + "': " + why +
                " (expected N:p1,...,p12 such as 60:1,7,9,11,13,15,18,20,22,24,26,32)");
  };
  std::size_t at = 0;
  auto skip_blanks = [&] {
    while (at < text.size() && std::isspace(static_cast<unsigned char>(text[at]))) ++at;
  };
  auto number = [&](const char* what) {
    skip_blanks();
    int value = 0;
    const auto [end, ec] = std::from_chars(text.data() + at, text.data() + text.size(), value);
    if (ec != std::errc() || end == text.data() + at)
      fail(std::string("expected ") + what + " at character " + std::to_string(at + 1));
    at = static_cast<std::size_t>(end - text.data());
    return value;
  };
  Spiral s;
  skip_blanks();
  if (at < text.size() && (text[at] == 'C' || text[at] == 'c')) ++at;
  s.atoms = number("the number of atoms");
  skip_blanks();
  if (at >= text.size() || text[at] != ':') fail("expected ':' after the number of atoms");
  ++at;
  for (int i = 0; i < 12; ++i) {
    if (i > 0) {
      skip_blanks();
      if (at < text.size() && text[at] == ',') ++at;
    }
    skip_blanks();
    if (at >= text.size()) fail("it has " + std::to_string(i) + " pentagon positions, not 12");
    s.pentagons[i] = number("a pentagon position");
  }
  skip_blanks();
  if (at < text.size() && text[at] == ',') ++at;
  skip_blanks();
  if (at != text.size())
    fail("more than 12 pentagon positions, or stray text at character " + std::to_string(at + 1));
  return s;
}

std::string format_spiral(const Spiral& spiral) {
  std::string s = std::to_string(spiral.atoms) + ":";
  for (int i = 0; i < 12; ++i) {
    if (i > 0) s += ',';
    s += std::to_string(spiral.pentagons[i]);
  }
  return s;
}

}  // namespace molstep::fullerene
