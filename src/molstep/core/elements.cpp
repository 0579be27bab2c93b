// SPDX-License-Identifier: MIT
#include "molstep/core/elements.hpp"

#include <algorithm>
#include <array>
#include <cctype>

namespace molstep::core {

namespace {

// IUPAC/CIAAW 2013 standard atomic weights (conventional values for elements given as an
// interval); Tc has no stable isotope and gets its longest-lived isotope's mass number, as in
// MDAnalysis.
constexpr Element table[] = {
    {"H", 1, 1.008},          {"He", 2, 4.002602},      {"Li", 3, 6.94},          {"Be", 4, 9.0121831},
    {"B", 5, 10.81},          {"C", 6, 12.011},         {"N", 7, 14.007},         {"O", 8, 15.999},
    {"F", 9, 18.998403163},   {"Ne", 10, 20.1797},      {"Na", 11, 22.98976928},  {"Mg", 12, 24.305},
    {"Al", 13, 26.9815385},   {"Si", 14, 28.085},       {"P", 15, 30.973761998},  {"S", 16, 32.06},
    {"Cl", 17, 35.45},        {"Ar", 18, 39.948},       {"K", 19, 39.0983},       {"Ca", 20, 40.078},
    {"Sc", 21, 44.955908},    {"Ti", 22, 47.867},       {"V", 23, 50.9415},       {"Cr", 24, 51.9961},
    {"Mn", 25, 54.938044},    {"Fe", 26, 55.845},       {"Co", 27, 58.933194},    {"Ni", 28, 58.6934},
    {"Cu", 29, 63.546},       {"Zn", 30, 65.38},        {"Ga", 31, 69.723},       {"Ge", 32, 72.630},
    {"As", 33, 74.921595},    {"Se", 34, 78.971},       {"Br", 35, 79.904},       {"Kr", 36, 83.798},
    {"Rb", 37, 85.4678},      {"Sr", 38, 87.62},        {"Y", 39, 88.90584},      {"Zr", 40, 91.224},
    {"Nb", 41, 92.90637},     {"Mo", 42, 95.95},        {"Tc", 43, 98.0},         {"Ru", 44, 101.07},
    {"Rh", 45, 102.90550},    {"Pd", 46, 106.42},       {"Ag", 47, 107.8682},     {"Cd", 48, 112.414},
    {"In", 49, 114.818},      {"Sn", 50, 118.710},      {"Sb", 51, 121.760},      {"Te", 52, 127.60},
    {"I", 53, 126.90447},     {"Xe", 54, 131.293},      {"Cs", 55, 132.90545196}, {"Ba", 56, 137.327},
    {"La", 57, 138.90547},    {"Ce", 58, 140.116},      {"Gd", 64, 157.25},       {"Hf", 72, 178.49},
    {"Ta", 73, 180.94788},    {"W", 74, 183.84},        {"Re", 75, 186.207},      {"Os", 76, 190.23},
    {"Ir", 77, 192.217},      {"Pt", 78, 195.084},      {"Au", 79, 196.966569},   {"Hg", 80, 200.592},
    {"Tl", 81, 204.38},       {"Pb", 82, 207.2},        {"Bi", 83, 208.98040},    {"U", 92, 238.02891},
};

// MDAnalysis's TABLE_ATOMELEMENTS (ions and CHARMM/GROMOS names whose first letters mislead),
// with the element in canonical case; MW (a virtual site, "DUMMY" there) has no element.
struct Alias {
  std::string_view name;
  std::string_view element;
};
constexpr Alias aliases[] = {
    {"BR", "Br"},  {"CAL", "Ca"}, {"C0", "Ca"},  {"CA2+", "Ca"}, {"CES", "Cs"}, {"CLA", "Cl"}, {"CLAL", "Cl"},
    {"CL", "Cl"},  {"CL-", "Cl"}, {"IOD", "I"},  {"FE", "Fe"},   {"FE2", "Fe"}, {"LIT", "Li"}, {"LI", "Li"},
    {"LI+", "Li"}, {"QL", "Li"},  {"MG", "Mg"},  {"MG2+", "Mg"}, {"K", "K"},    {"POT", "K"},  {"K+", "K"},
    {"QK", "K"},   {"SOD", "Na"}, {"NA", "Na"},  {"NA+", "Na"},  {"QN", "Na"},  {"ZN", "Zn"},  {"CU", "Cu"},
    {"CS", "Cs"},  {"CS+", "Cs"}, {"QC", "Ce"},  {"RB", "Rb"},   {"QR", "Rb"},  {"BC", "C"},   {"AC", "C"},
    {"MW", ""},
};

// The elements MDAnalysis's guesser tries when shortening a name (tables.elements).
constexpr std::array<std::string_view, 16> guess_set = {"H",  "LI", "BE", "B", "C",  "N",  "O", "F",
                                                       "NA", "MG", "AL", "P", "SI", "S", "CL", "K"};

std::string upper(std::string_view s) {
  std::string u(s);
  for (char& c : u) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return u;
}

bool equal_nocase(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::toupper(static_cast<unsigned char>(x)) == std::toupper(static_cast<unsigned char>(y));
         });
}

const Alias* find_alias(std::string_view name_upper) {
  for (const auto& a : aliases)
    if (a.name == name_upper) return &a;
  return nullptr;
}

bool in_guess_set(std::string_view s) {
  return std::find(guess_set.begin(), guess_set.end(), s) != guess_set.end();
}

// Canonical case of a symbol known to be in the table ("CL" -> "Cl"); "" for anything else.
std::string canonical(std::string_view symbol) {
  const Element* e = find_element(symbol);
  return e ? std::string(e->symbol) : std::string();
}

}  // namespace

const Element* find_element(std::string_view symbol) {
  for (const auto& e : table)
    if (equal_nocase(e.symbol, symbol)) return &e;
  return nullptr;
}

const Element* element_by_number(int z) {
  for (const auto& e : table)
    if (e.number == z) return &e;
  return nullptr;
}

double element_mass(std::string_view symbol) {
  const Element* e = find_element(symbol);
  return e ? e->mass : 0.0;
}

std::string guess_element(const std::string& atom_name) {
  if (atom_name.empty()) return {};
  // molstep extension: "Cu", "Ar" written in canonical case name their element.
  if (atom_name.size() == 2 && std::isupper(static_cast<unsigned char>(atom_name[0])) &&
      std::islower(static_cast<unsigned char>(atom_name[1]))) {
    if (const Element* e = find_element(atom_name); e && e->symbol == atom_name) return atom_name;
  }
  if (const Alias* a = find_alias(upper(atom_name))) return std::string(a->element);
  std::string no_symbols;
  for (char c : atom_name)
    if (c != '*' && c != '+' && c != '-') no_symbols += c;
  std::string name;
  for (char c : no_symbols)
    if (!std::isdigit(static_cast<unsigned char>(c))) name += c;
  name = upper(name);
  if (const Alias* a = find_alias(name)) return std::string(a->element);
  while (!name.empty()) {
    if (in_guess_set(name)) return canonical(name);
    const std::string_view v(name);
    if (in_guess_set(v.substr(0, v.size() - 1))) return canonical(v.substr(0, v.size() - 1));
    if (in_guess_set(v.substr(1))) return canonical(v.substr(1));
    if (name.size() <= 2) return canonical(v.substr(0, 1));
    name.pop_back();  // the element is more likely on the left than on the right
  }
  return {};  // MDAnalysis returns the digits here ("123"), which are no element
}

void guess_elements(Topology& topology) {
  if (!topology.element.empty() || topology.name.empty()) return;
  topology.element.reserve(topology.name.size());
  for (const auto& n : topology.name) topology.element.push_back(guess_element(n));
}

void guess_masses(Topology& topology) {
  if (!topology.mass.empty()) return;
  if (topology.element.empty() && topology.name.empty()) return;
  const std::size_t n = topology.natoms();
  topology.mass.assign(n, 0.0);
  for (std::size_t i = 0; i < n; ++i) {
    std::string el = i < topology.element.size() ? topology.element[i] : std::string();
    if (el.empty() && i < topology.name.size()) el = guess_element(topology.name[i]);
    topology.mass[i] = element_mass(el);
  }
}

}  // namespace molstep::core
