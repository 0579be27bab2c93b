// SPDX-License-Identifier: MIT
#include "molstep/analysis/queries/density.hpp"

#include <cmath>

#include "molstep/core/elements.hpp"

namespace molstep::analysis {

DensityQuery::DensityQuery(const QuerySpec& spec, QueryContext& context, Params& params)
    : QueryBase(spec), units_(unit_names(context.units)) {
  const int sel = selection_param(params, context, "sel", "all", false);
  atoms_ = context.selections[sel].indices;
  const std::string axis = params.get_string("axis", "z");
  if (axis != "x" && axis != "y" && axis != "z") fail("axis must be x, y or z, found '" + axis + "'");
  axis_ = axis[0] - 'x';
  note("axis", axis);
  const long bins = params.get_integer("bins", 100);
  if (bins < 1) fail("bins must be at least 1");
  sums_.assign(static_cast<std::size_t>(bins), 0.0);
  note("bins", bins);

  const auto& f = context.first_frame;
  if (!f.has_box()) fail("a density profile needs a box, and the source has none");
  if (!f.orthorhombic() && axis_ != 2) fail("with a triclinic box only axis=z is supported");

  type_ = params.get_string("type", "number");
  note("type", type_);
  const auto& top = context.selections.topology();
  const std::string cube = units_.length + "^3";
  if (type_ == "number") {
    weight_.assign(atoms_.size(), 1.0);
    unit_ = "1/" + cube;
  } else if (type_ == "mass") {
    if (top.mass.empty()) fail("type=mass needs per-atom masses from a topology");
    for (const auto i : atoms_) weight_.push_back(top.mass[i]);
    if (units_.reduced) {
      unit_ = "m/" + cube;
    } else {
      unit_ = "g/cm^3";
      scale_ = constants::kGramPerCm3PerUPerA3;
    }
  } else if (type_ == "charge") {
    if (top.charge.empty()) fail("type=charge needs per-atom charges from a topology");
    for (const auto i : atoms_) weight_.push_back(top.charge[i]);
    unit_ = "e/" + cube;
  } else if (type_ == "electron") {
    // Electrons of an atom = atomic number - charge (gmx density -dens electron uses the
    // electron count of its electrons.dat minus the charge the same way).
    if (top.element.empty() && top.name.empty()) fail("type=electron needs elements or atom names from a topology");
    if (top.charge.empty()) warn("no charges in the topology: electrons counted for neutral atoms");
    for (const auto i : atoms_) {
      const std::string symbol = top.element.empty() ? core::guess_element(top.name[i]) : top.element[i];
      const auto* element = core::find_element(symbol);
      if (element == nullptr) {
        fail("type=electron: atom " + std::to_string(i) + " has no known element ('" + symbol + "')");
      }
      weight_.push_back(element->number - (top.charge.empty() ? 0.0 : top.charge[i]));
    }
    unit_ = "e/" + cube;
  } else {
    fail("type must be number, mass, charge or electron, found '" + type_ + "'");
  }
  context.requests.positions();
}

void DensityQuery::push(const FrameData& data) {
  const auto& f = data.frame;
  if (!f.has_box()) fail("frame " + std::to_string(data.index) + " has no box");
  if (!f.orthorhombic() && axis_ != 2) fail("frame " + std::to_string(data.index) + " has a triclinic box; use axis=z");
  const auto a = static_cast<std::size_t>(axis_);
  // In the GROMACS box convention box[a][a] is the height of the box perpendicular to the
  // other two axes' plane for a = z in any box, and the length along a in an orthorhombic one.
  const double length = f.box[a][a];
  const double slab_volume = f.volume() / static_cast<double>(sums_.size());
  const std::vector<double>& coord = axis_ == 0 ? f.x : axis_ == 1 ? f.y : f.z;
  const auto bins = static_cast<double>(sums_.size());
  for (std::size_t k = 0; k < atoms_.size(); ++k) {
    double s = coord[atoms_[k]] / length;
    s -= std::floor(s);
    auto b = static_cast<std::size_t>(s * bins);
    // s can round up to exactly 1 for a coordinate a hair below 0.
    if (b >= sums_.size()) b = sums_.size() - 1;
    sums_[b] += weight_[k] / slab_volume;
  }
  length_sum_ += length;
  ++frames_;
}

void DensityQuery::finish(const FinalData& data, const QueryOutput& out) {
  const double frames = static_cast<double>(frames_);
  const double mean_length = frames_ ? length_sum_ / frames : 0.0;
  const std::size_t bins = sums_.size();
  std::vector<std::int64_t> index;
  std::vector<double> coord, density;
  double mean = 0;
  std::size_t peak = 0;
  for (std::size_t b = 0; b < bins; ++b) {
    index.push_back(static_cast<std::int64_t>(b));
    coord.push_back((static_cast<double>(b) + 0.5) * mean_length / static_cast<double>(bins));
    density.push_back(frames_ ? sums_[b] * scale_ / frames : std::nan(""));
    mean += density.back() / static_cast<double>(bins);
    if (density[b] > density[peak]) peak = b;
  }
  const std::string axis(1, static_cast<char>('x' + axis_));
  write_table(out, "", {{"bin", index}, {axis, coord}, {"density", density}},
              {type_ + " density in " + unit_ + " along " + axis + " (" + units_.length +
               ", slab centres in the mean box length " + format_double(mean_length) + ")"});
  nlohmann::json results = {{"unit", unit_}, {"mean_box_length", mean_length}};
  if (frames_) {
    results["mean_density"] = mean;
    results["max_density"] = density[peak];
    results["max_at"] = coord[peak];
  }
  write_plot(out, "",
             {label() + ": " + type_ + " density",
              axis + " (" + units_.length + ")",
              "density (" + unit_ + ")",
              {{"", coord, density}},
              false});
  publish(out, data.frames, std::move(results));
}

}  // namespace molstep::analysis
