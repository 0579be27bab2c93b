// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "molstep/core/topology.hpp"

namespace molstep::analysis {

/// Atoms chosen by an expression: 0-based indices, sorted and unique.
struct Selection {
  std::string name;
  std::string expression;
  std::vector<std::uint32_t> indices;
};

/// The selections of one analysis, shared by its queries (each evaluated once).
///
/// Language (MDAnalysis-like): `all`, `none`, `type 1 2 4-6`, `name OW HW*`, `resname SOL`,
/// `resid 1-10 12`, `index 0-99` (0-based), `bynum 1-100` (1-based), `element O H`,
/// `protein`, `water`, combined with `and`, `or`, `not` and parentheses; a bare word that names an
/// earlier selection stands for it. Ranges accept `a-b` and `a:b` (inclusive); name-like values
/// accept `*` and `?` wildcards.
class SelectionSet {
 public:
  SelectionSet(core::Topology topology, std::size_t natoms);

  /// Defines NAME=EXPR and returns its id. Errors (molstep::Error) quote the expression and point
  /// at the offending word, e.g. "selection 'O': 'nme OW': unknown keyword 'nme' at column 1
  /// (known: all, none, type, name, ...)"; a keyword the topology cannot answer (`name` with no
  /// names loaded) is an error that says which file would provide it.
  int define(const std::string& name, const std::string& expression);
  /// The id of a defined selection name, or of `expression` evaluated as an anonymous selection
  /// (cached by its text).
  int resolve(const std::string& name_or_expression);

  [[nodiscard]] const Selection& operator[](int id) const { return selections_.at(static_cast<std::size_t>(id)); }
  [[nodiscard]] std::size_t size() const { return selections_.size(); }
  [[nodiscard]] std::size_t natoms() const { return natoms_; }
  [[nodiscard]] const core::Topology& topology() const { return topology_; }

 private:
  /// One string column of the topology (names, residue names, elements) as a small dictionary of
  /// distinct values plus a per-atom code, built on first use: patterns are matched once per
  /// distinct value instead of once per atom, which keeps 4M-atom selections fast.
  struct Column {
    std::vector<std::string> values;
    std::vector<std::uint32_t> codes;
    bool built = false;
  };
  class Parser;  // parses and evaluates one expression (selection.cpp)

  int add(const std::string& name, const std::string& expression);

  core::Topology topology_;
  std::size_t natoms_;
  std::vector<Selection> selections_;
  std::map<std::string, int> named_;      ///< ids of define()d selections by name
  std::map<std::string, int> anonymous_;  ///< ids of resolve()d expressions by their text
  Column name_column_;
  Column resname_column_;
  Column element_column_;
};

}  // namespace molstep::analysis
