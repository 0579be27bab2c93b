// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <string_view>

#include "molstep/core/topology.hpp"

namespace molstep::core {

/// One chemical element: symbol in canonical case ("Cl"), atomic number and standard atomic
/// weight in g/mol (IUPAC/CIAAW 2013 values; the conventional value where IUPAC gives an
/// interval, e.g. H 1.008, Li 6.94, C 12.011).
struct Element {
  std::string_view symbol;
  int number = 0;
  double mass = 0;
};

/// The element whose symbol is `symbol`, compared case-insensitively ("CL", "cl", "Cl"), or
/// nullptr. The table holds H to Xe (Z 1-54) and the common heavier elements Cs, Ba, La, Ce, Gd,
/// Hf-Bi and U.
const Element* find_element(std::string_view symbol);
/// The element with atomic number `z`, or nullptr.
const Element* element_by_number(int z);
/// Standard atomic weight of `symbol` (case-insensitive), 0 when unknown (as MDAnalysis).
double element_mass(std::string_view symbol);

/// Guesses the element of an atom from its name, following MDAnalysis's guess_atom_element
/// (topology/guessers.py, 2.4): the name is looked up in its table of ion and CHARMM/GROMOS
/// names (SOD -> Na, CLA -> Cl, POT -> K, CAL -> Ca, NA -> Na, ...); otherwise digits and *+-
/// are removed and the name is shortened from the right until it, or it without its first or
/// last letter, is one of H Li Be B C N O F Na Mg Al P Si S Cl K (so OW -> O, HW1 -> H,
/// CA -> C (the protein alpha carbon; write CAL or CA2+ for calcium), CB -> C, NZ -> N,
/// HE1 -> H). Note that the name NA, as in MDAnalysis, is sodium (in a heme it would be a
/// nitrogen). molstep differs in three ways: the result is in canonical case ("Cl", not "CL");
/// a name that is a two-letter symbol written in canonical case ("Cu", "Ar", "Na") is that
/// element; and where MDAnalysis would return something that is no element (the first letter
/// "A" of "AR", the digits of "123", "DUMMY" for the virtual site MW) the result is "".
std::string guess_element(const std::string& atom_name);

/// Fills topology.element from the names (guess_element) when it is empty.
void guess_elements(Topology& topology);
/// Fills topology.mass when it is empty: from the elements (guessed from the names when there
/// are none); an unknown element gets mass 0, as in MDAnalysis.
void guess_masses(Topology& topology);

}  // namespace molstep::core
