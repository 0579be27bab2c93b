// SPDX-License-Identifier: MIT
#include "molstep/core/frame.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace molstep::core {

namespace {

constexpr double deg = std::numbers::pi / 180.0;

double norm(const std::array<double, 3>& v) { return std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]); }
double dot(const std::array<double, 3>& u, const std::array<double, 3>& v) {
  return u[0] * v[0] + u[1] * v[1] + u[2] * v[2];
}

// The angle between two vectors in degrees. Perpendicular vectors give exactly 90 (acos(0) in
// degrees can round to 90.00000000000001 otherwise), so orthorhombic boxes stay recognisable.
double angle(const std::array<double, 3>& u, const std::array<double, 3>& v, double lu, double lv) {
  const double d = dot(u, v);
  if (d == 0.0) return 90.0;
  return std::acos(std::clamp(d / (lu * lv), -1.0, 1.0)) / deg;
}

}  // namespace

// Follows MDAnalysis.lib.mdamath.triclinic_vectors: invalid input (a length <= 0, an angle
// outside (0, 180), or angles no box can have) gives the all-zero "no box"; angles of exactly
// 90 degrees use exact cosines 0 and sine 1, so an orthorhombic box has exact zeros off the
// diagonal.
std::array<std::array<double, 3>, 3> box_from_lengths_angles(double a, double b, double c, double alpha,
                                                             double beta, double gamma) {
  std::array<std::array<double, 3>, 3> box{};
  if (!(a > 0 && b > 0 && c > 0 && alpha > 0 && beta > 0 && gamma > 0 && alpha < 180 && beta < 180 &&
        gamma < 180))
    return box;
  if (alpha == 90.0 && beta == 90.0 && gamma == 90.0) {
    box[0][0] = a;
    box[1][1] = b;
    box[2][2] = c;
    return box;
  }
  const double cos_alpha = alpha == 90.0 ? 0.0 : std::cos(alpha * deg);
  const double cos_beta = beta == 90.0 ? 0.0 : std::cos(beta * deg);
  const double cos_gamma = gamma == 90.0 ? 0.0 : std::cos(gamma * deg);
  const double sin_gamma = gamma == 90.0 ? 1.0 : std::sin(gamma * deg);
  box[0][0] = a;
  box[1][0] = b * cos_gamma;
  box[1][1] = b * sin_gamma;
  box[2][0] = c * cos_beta;
  box[2][1] = c * (cos_alpha - cos_beta * cos_gamma) / sin_gamma;
  const double zz = c * c - box[2][0] * box[2][0] - box[2][1] * box[2][1];
  // A non-positive (or NaN) discriminant means angles no box can have (one angle at least the
  // sum of the other two).
  if (!(zz > 0.0)) return {};
  box[2][2] = std::sqrt(zz);
  return box;
}

// Follows MDAnalysis.lib.mdamath.triclinic_box (in double precision): an invalid box gives all
// zeros.
std::array<double, 6> box_lengths_angles(const std::array<std::array<double, 3>, 3>& box) {
  const double la = norm(box[0]), lb = norm(box[1]), lc = norm(box[2]);
  if (!(la > 0 && lb > 0 && lc > 0)) return {};
  const double alpha = angle(box[1], box[2], lb, lc);
  const double beta = angle(box[0], box[2], la, lc);
  const double gamma = angle(box[0], box[1], la, lb);
  if (!(alpha > 0 && beta > 0 && gamma > 0 && alpha < 180 && beta < 180 && gamma < 180)) return {};
  return {la, lb, lc, alpha, beta, gamma};
}

}  // namespace molstep::core
