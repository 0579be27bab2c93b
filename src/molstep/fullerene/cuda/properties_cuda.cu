// SPDX-License-Identifier: MIT
// fullerene::isomer_properties in lockstep: one block per isomer, one thread per atom (and per
// face), double precision. The per-atom arithmetic is wirz_terms.hpp's, shared with the CPU; the
// sums are block reductions. The Hueckel gap comes from its own kernel (hueckel_gap.cu),
// launched first.
#include "molstep/fullerene/cuda/properties_cuda.cuh"

#include <algorithm>
#include <memory>
#include <numbers>
#include <string>

#include "molstep/core/error.hpp"
#include "molstep/fullerene/cuda/block_reduce.cuh"
#include "molstep/gpu/stream.cuh"
#include "molstep/fullerene/cuda/properties_cuda.hpp"
#include "molstep/fullerene/wirz_terms.hpp"
#include "molstep/gpu/cuda_check.cuh"

namespace molstep::fullerene::cuda {
namespace {

/// Threads per block at most: one per atom, atoms rounded up to a warp (C400 takes 416).
constexpr int kMaxThreads = 512;

/// Byte offsets of a block's dynamic shared memory: the coordinates, then the integers.
struct SharedLayout {
  std::size_t x, cubic, face_arc, total;

  __host__ __device__ SharedLayout(int n, int faces) {
    const auto up = [](std::size_t b) { return (b + 15) / 16 * 16; };
    const auto nn = static_cast<std::size_t>(n);
    x = 0;
    cubic = up(x + 3 * nn * sizeof(double));
    face_arc = up(cubic + 3 * nn * sizeof(int));
    total = up(face_arc + static_cast<std::size_t>(faces) * sizeof(int));
  }
};

/// The atom after v on the face walked u -> v (CubicGraph::next_on_face), or -1 when v does
/// not list u.
__device__ inline int next_on_face(const int* cubic, int u, int v) {
  const int* nv = cubic + 3 * v;
  const int j = nv[0] == u ? 0 : nv[1] == u ? 1 : nv[2] == u ? 2 : -1;
  return j < 0 ? -1 : nv[(j + 2) % 3];
}

/// Walks the face of the arc u -> v (CubicGraph::face_size's walk) and returns its size, or -1
/// unless it closes within 6 atoms. `lowest` gets its smallest atom; `atoms` (if given) its
/// atoms in walk order from u.
__device__ inline int walk_face(const int* cubic, int u, int v, int& lowest, int* atoms) {
  int size = 1, a = u, b = v;
  lowest = u;
  if (atoms) atoms[0] = u;
  while (b != u) {
    if (b < 0 || size == 6) return -1;
    if (atoms) atoms[size] = b;
    lowest = min(lowest, b);
    ++size;
    const int c = next_on_face(cubic, a, b);
    a = b;
    b = c;
  }
  return size;
}

__device__ inline wirz::V3 load(const double* x, int a) { return {x[3 * a], x[3 * a + 1], x[3 * a + 2]}; }

/// std::clamp's semantics (NaN passes through), so a degenerate geometry gives NaN as on the CPU.
__device__ inline double clamp_unit(double c) { return c < -1.0 ? -1.0 : (1.0 < c ? 1.0 : c); }

/// Every field NaN: what a slot whose graph is not a fullerene gets.
__device__ inline IsomerProperties nan_properties() {
  const double nan = __longlong_as_double(0x7ff8000000000000LL);
  IsomerProperties p;
  p.energy = p.bond_rmsd = p.angle_rmsd = p.dihedral_rmsd = nan;
  p.bond_rrmse = p.angle_rrmse = p.dihedral_rrmse = nan;
  p.volume = p.area = p.sphericity = p.circumradius = p.mean_radius = p.homo_lumo_gap = nan;
  return p;
}

/// The properties of every finished slot of b, the Hueckel gap taken from `gaps` (HueckelGap).
__global__ void __launch_bounds__(kMaxThreads) properties_kernel(BatchView b, bool flatness, const double* gaps) {
  extern __shared__ __align__(16) unsigned char smem[];
  __shared__ BlockScratch<double> red;
  __shared__ BlockScratch<int> ired;

  const int n = b.atoms, nf = b.faces, tid = static_cast<int>(threadIdx.x);
  const bool atom = tid < n;
  const SharedLayout at(n, nf);
  double* x = reinterpret_cast<double*>(smem + at.x);
  int* cubic = reinterpret_cast<int*>(smem + at.cubic);
  int* face_arc = reinterpret_cast<int*>(smem + at.face_arc);  // face f's canonical arc, 3 u + k

  for (int slot = static_cast<int>(blockIdx.x); slot < b.capacity; slot += static_cast<int>(gridDim.x)) {
    if (!finished(b.status[slot])) continue;  // block-uniform
    __syncthreads();                          // the previous slot is done with shared memory

    // The slot's graph and coordinates; a neighbour out of range marks a broken graph.
    const std::size_t base = static_cast<std::size_t>(slot) * 3 * n;
    int bad = 0;
    for (int i = tid; i < 3 * n; i += static_cast<int>(blockDim.x)) {
      x[i] = b.x[base + i];
      const int nb = b.cubic[base + i];
      cubic[i] = nb;
      bad |= nb < 0 || nb >= n;
    }
    if (block_max(bad, ired)) {  // block-uniform; the barriers also publish the loads
      if (tid == 0) b.properties[slot] = nan_properties();
      continue;
    }

    // Each atom's faces (F1 of arc k is the face walked from the arc a -> nbr[k], as in
    // ForceField) and the faces it numbers: those whose smallest atom it is, in arc order, which
    // is dual.hpp's faces() order.
    int nbr[3] = {0, 0, 0}, hex[3] = {0, 0, 0}, owned = 0;
    bool canonical[3] = {false, false, false};
    if (atom)
      for (int k = 0; k < 3; ++k) {
        nbr[k] = cubic[3 * tid + k];
        int lowest = 0;
        const int size = walk_face(cubic, tid, nbr[k], lowest, nullptr);
        bad |= size != 5 && size != 6;
        hex[k] = size == 6 ? 1 : 0;
        canonical[k] = lowest == tid;
        owned += canonical[k];
      }
    int faces = 0;
    int id = block_exclusive_scan(owned, ired, &faces);
    if (block_max(bad, ired) || faces != nf) {  // block-uniform
      if (tid == 0) b.properties[slot] = nan_properties();
      continue;
    }
    for (int k = 0; k < 3; ++k)
      if (canonical[k]) face_arc[id++] = 3 * tid + k;

    // Centroid of the atoms (the first block_sum's barriers publish face_arc).
    double centre_c[3];
    for (int c = 0; c < 3; ++c) centre_c[c] = block_sum(atom ? x[3 * tid + c] / n : 0.0, red);
    const wirz::V3 centre{centre_c[0], centre_c[1], centre_c[2]};

    // Per atom: its Wirz energy and, per arc, the squared deviations isomer_properties sums.
    double energy = 0, bond2 = 0, bond0 = 0, angle2 = 0, angle0 = 0, dih2 = 0, dih0 = 0, radius = 0;
    if (atom) {
      const wirz::V3 xa = load(x, tid);
      wirz::V3 bonds[3];
      wirz::ArcParams p[3];
      for (int k = 0; k < 3; ++k) {
        bonds[k] = load(x, nbr[k]) - xa;
        p[k] = wirz::arc_params(hex[k], hex[(k + 1) % 3], hex[(k + 2) % 3]);
      }
      energy = wirz::atom_energy(bonds, p);
      for (int k = 0; k < 3; ++k) {
        const wirz::ArcGeometry arc = wirz::arc_geometry(bonds, k);
        const double angle = acos(clamp_unit(arc.cos_angle)), angle_eq = acos(p[k].cos_angle0);
        const double dih = acos(clamp_unit(arc.cos_dihedral)), dih_eq = acos(p[k].cos_dihedral0);
        bond2 += (arc.bond - p[k].r0) * (arc.bond - p[k].r0);
        bond0 += p[k].r0 * p[k].r0;
        angle2 += (angle - angle_eq) * (angle - angle_eq);
        angle0 += angle_eq * angle_eq;
        dih2 += (dih - dih_eq) * (dih - dih_eq);
        dih0 += dih_eq * dih_eq;
      }
      radius = wirz::norm(xa - centre);
    }

    // Per face: the triangles fanned from its centroid (area and signed volume about the atoms'
    // centroid) and its flatness energy.
    double area = 0, volume = 0;
    if (tid < nf) {
      const int arc = face_arc[tid];
      int atoms[6], lowest = 0;
      const int size = walk_face(cubic, arc / 3, cubic[arc], lowest, atoms);
      wirz::V3 pts[6];
      wirz::V3 c{0, 0, 0};
      for (int i = 0; i < size; ++i) {
        pts[i] = load(x, atoms[i]);
        c.x += pts[i].x / size;
        c.y += pts[i].y / size;
        c.z += pts[i].z / size;
      }
      for (int i = 0; i < size; ++i) {
        const wirz::V3 tri = wirz::cross(pts[i] - c, pts[(i + 1) % size] - c);
        area += 0.5 * sqrt(wirz::dot(tri, tri));
        volume += wirz::dot(c - centre, tri) / 6.0;
      }
      if (flatness) energy += 0.5 * wirz::constants().flatness_force * wirz::face_plane(pts, size).lambda;
    }

    IsomerProperties out;
    energy = block_sum(energy, red);
    bond2 = block_sum(bond2, red);
    bond0 = block_sum(bond0, red);
    angle2 = block_sum(angle2, red);
    angle0 = block_sum(angle0, red);
    dih2 = block_sum(dih2, red);
    dih0 = block_sum(dih0, red);
    out.circumradius = block_max(radius, red);
    out.mean_radius = block_sum(atom ? radius / n : 0.0, red);
    out.area = block_sum(area, red);
    out.volume = fabs(block_sum(volume, red));

    if (tid == 0) {
      constexpr double kDegrees = 180.0 / std::numbers::pi;
      const double arcs = 3.0 * n;
      out.energy = energy;
      out.bond_rmsd = sqrt(bond2 / arcs);
      out.angle_rmsd = sqrt(angle2 / arcs) * kDegrees;
      out.dihedral_rmsd = sqrt(dih2 / arcs) * kDegrees;
      out.bond_rrmse = sqrt(bond2 / bond0 / arcs);
      out.angle_rrmse = sqrt(angle2 / angle0 / arcs);
      out.dihedral_rrmse = sqrt(dih2 / dih0 / arcs);
      out.sphericity = cbrt(std::numbers::pi) * pow(6.0 * out.volume, 2.0 / 3.0) / out.area;
      out.homo_lumo_gap = gaps[slot];
      b.properties[slot] = out;
    }
  }
}

}  // namespace

PropertiesStage::PropertiesStage(int atoms, int capacity, bool flatness)
    : atoms_(atoms), capacity_(capacity), flatness_(flatness) {
  if (atoms < 20 || atoms % 2 != 0 || capacity < 1)
    throw Error("PropertiesStage: C" + std::to_string(atoms) + " with " + std::to_string(capacity) +
                " slots is not a batch of fullerenes");
  threads_ = (atoms + 31) / 32 * 32;
  if (threads_ > kMaxThreads)
    throw Error("PropertiesStage: one thread per atom, at most " + std::to_string(kMaxThreads) + " threads: C" +
                std::to_string(atoms) + " is too large");
  shared_bytes_ = SharedLayout(atoms, atoms / 2 + 2).total;  // C400: 19 KiB, under the 48 KiB default
  grid_ = gpu::resident_grid(properties_kernel, threads_, shared_bytes_, capacity);
  hueckel_ = std::make_unique<HueckelGap>(atoms, capacity);
}

void PropertiesStage::launch(const BatchView& b, cudaStream_t s) {
  if (b.atoms != atoms_ || b.faces != atoms_ / 2 + 2 || b.capacity != capacity_)
    throw Error("PropertiesStage for C" + std::to_string(atoms_) + " x " + std::to_string(capacity_) +
                " launched on a batch of C" + std::to_string(b.atoms) + " x " + std::to_string(b.capacity));
  hueckel_->launch(b, s);
  properties_kernel<<<grid_, threads_, shared_bytes_, s>>>(b, flatness_, hueckel_->gaps());
  MOLSTEP_CUDA_CHECK(cudaGetLastError());
}

std::vector<IsomerProperties> properties_on_gpu(const std::vector<CubicGraph>& graphs,
                                                const std::vector<std::vector<std::array<double, 3>>>& positions,
                                                bool flatness) {
  if (graphs.size() != positions.size())
    throw Error("properties_on_gpu: " + std::to_string(graphs.size()) + " graphs and " +
                std::to_string(positions.size()) + " sets of positions");
  if (graphs.empty()) return {};
  const int n = graphs[0].size();
  for (std::size_t i = 0; i < graphs.size(); ++i)
    if (graphs[i].size() != n || static_cast<int>(positions[i].size()) != n)
      throw Error("properties_on_gpu: isomer " + std::to_string(i) + " has " + std::to_string(graphs[i].size()) +
                  " atoms and " + std::to_string(positions[i].size()) + " positions; isomer 0 has " +
                  std::to_string(n) + " atoms");
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    cudaGetLastError();  // not sticky: clear it
    throw Error("properties_on_gpu: no CUDA device");
  }

  const int capacity = static_cast<int>(graphs.size());
  const auto slots = static_cast<std::size_t>(capacity), nn = static_cast<std::size_t>(n);
  std::vector<std::int32_t> cubic(slots * nn * 3);
  std::vector<double> x(slots * nn * 3);
  for (std::size_t i = 0; i < slots; ++i)
    for (std::size_t a = 0; a < nn; ++a)
      for (int k = 0; k < 3; ++k) {
        cubic[(i * nn + a) * 3 + k] = graphs[i].adj[a][k];
        x[(i * nn + a) * 3 + k] = positions[i][a][k];
      }
  const std::vector<std::int32_t> status(slots, kConverged);

  PropertiesStage stage(n, capacity, flatness);
  DeviceBatch batch(n, capacity);
  const BatchView& view = batch.view();
  MOLSTEP_CUDA_CHECK(cudaMemcpy(view.cubic, cubic.data(), cubic.size() * sizeof(std::int32_t), cudaMemcpyHostToDevice));
  MOLSTEP_CUDA_CHECK(cudaMemcpy(view.x, x.data(), x.size() * sizeof(double), cudaMemcpyHostToDevice));
  MOLSTEP_CUDA_CHECK(
      cudaMemcpy(view.status, status.data(), status.size() * sizeof(std::int32_t), cudaMemcpyHostToDevice));
  stage.launch(view, nullptr);
  MOLSTEP_CUDA_CHECK(cudaDeviceSynchronize());
  std::vector<IsomerProperties> out(slots);
  MOLSTEP_CUDA_CHECK(
      cudaMemcpy(out.data(), view.properties, slots * sizeof(IsomerProperties), cudaMemcpyDeviceToHost));
  return out;
}

}  // namespace molstep::fullerene::cuda
