// A LULESH-shaped Lagrangian hydrodynamics proxy: a cube of hexahedral
// elements, an energy deposit in the corner element (a Sedov-like blast),
// and per time step the LULESH phases: element forces from the pressure,
// nodal forces gathered from the element corners, accelerations, velocities
// (with a cutoff), positions, the new element volumes (out-of-line helpers
// per element), an energy/EOS update with a data-dependent branch, and the
// time step constraint (a min reduction over the elements).
//
// As in LULESH, the fields live in a Domain of std::vectors and the kernels
// reach them through it (d.x[i], d.xd[i]); the element loops are OpenMP
// parallel (the file builds without -fopenmp too). The output is
// deterministic (no parallel floating-point sums): checksums in %.10e.
//
// USAGE: hydro [edge-elements] [iterations]    (defaults 10 and 20)
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#ifdef _OPENMP
#define OMP_FOR _Pragma("omp parallel for")
#define OMP_FOR_MIN_DTC _Pragma("omp parallel for reduction(min : dtc)")
#else
#define OMP_FOR
#define OMP_FOR_MIN_DTC
#endif

#define HELPER __attribute__((noinline))

struct Domain {
  int nx = 0;              // elements per edge
  int numElem = 0, numNode = 0;
  // Nodes: coordinates, velocities, accelerations, forces, mass.
  std::vector<double> x, y, z, xd, yd, zd, xdd, ydd, zdd, fx, fy, fz, nodalMass;
  // Elements: energy, pressure, artificial viscosity, relative volume and
  // its change, reference volume, sound speed, characteristic length.
  std::vector<double> e, p, q, v, delv, volo, ss, arealg;
  // Per element corner forces (8 per element), gathered per node.
  std::vector<double> fxElem, fyElem, fzElem;
  std::vector<int> nodelist;          // 8 nodes per element
  std::vector<int> nodeElemStart;     // CSR: node -> element corners
  std::vector<int> nodeElemCorner;
  double dt = 1e-4, time = 0;
  double uCut = 1e-7, eMin = -1e15, pMin = 0, ssMin = 1e-10, gammaM1 = 2.0 / 3.0;
};

// The volume of a hexahedron (LULESH's triple-product formula).
HELPER double CalcElemVolume(const double x[8], const double y[8], const double z[8]) {
  auto triple = [](double x1, double y1, double z1, double x2, double y2, double z2,
                   double x3, double y3, double z3) {
    return x1 * (y2 * z3 - z2 * y3) + x2 * (z1 * y3 - y1 * z3) + x3 * (y1 * z2 - z1 * y2);
  };
  double dx61 = x[6] - x[1], dy61 = y[6] - y[1], dz61 = z[6] - z[1];
  double dx70 = x[7] - x[0], dy70 = y[7] - y[0], dz70 = z[7] - z[0];
  double dx63 = x[6] - x[3], dy63 = y[6] - y[3], dz63 = z[6] - z[3];
  double dx20 = x[2] - x[0], dy20 = y[2] - y[0], dz20 = z[2] - z[0];
  double dx50 = x[5] - x[0], dy50 = y[5] - y[0], dz50 = z[5] - z[0];
  double dx64 = x[6] - x[4], dy64 = y[6] - y[4], dz64 = z[6] - z[4];
  double dx31 = x[3] - x[1], dy31 = y[3] - y[1], dz31 = z[3] - z[1];
  double dx72 = x[7] - x[2], dy72 = y[7] - y[2], dz72 = z[7] - z[2];
  double dx43 = x[4] - x[3], dy43 = y[4] - y[3], dz43 = z[4] - z[3];
  double dx57 = x[5] - x[7], dy57 = y[5] - y[7], dz57 = z[5] - z[7];
  double dx14 = x[1] - x[4], dy14 = y[1] - y[4], dz14 = z[1] - z[4];
  double dx25 = x[2] - x[5], dy25 = y[2] - y[5], dz25 = z[2] - z[5];
  double vol = triple(dx31 + dx72, dx63, dx20, dy31 + dy72, dy63, dy20, dz31 + dz72, dz63, dz20) +
               triple(dx43 + dx57, dx64, dx70, dy43 + dy57, dy64, dy70, dz43 + dz57, dz64, dz70) +
               triple(dx14 + dx25, dx61, dx50, dy14 + dy25, dy61, dy50, dz14 + dz25, dz61, dz50);
  return vol / 12.0;
}

// Corner forces of one element: the pressure (plus viscosity) pushing each
// corner away from the element's centre, scaled by the element's size.
HELPER void CalcElemNodeForces(const double x[8], const double y[8], const double z[8],
                               double pq, double vol, double f[3][8]) {
  double cx = 0, cy = 0, cz = 0;
  for (int k = 0; k < 8; ++k) {
    cx += x[k];
    cy += y[k];
    cz += z[k];
  }
  cx *= 0.125;
  cy *= 0.125;
  cz *= 0.125;
  double s = pq * std::cbrt(vol) * 0.25;
  for (int k = 0; k < 8; ++k) {
    f[0][k] = s * (x[k] - cx);
    f[1][k] = s * (y[k] - cy);
    f[2][k] = s * (z[k] - cz);
  }
}

// The equation of state, with LULESH's floors and cutoffs: data-dependent.
HELPER void CalcElemEOS(double e, double vnew, double pMin, double ssMin, double gammaM1,
                        double *p, double *ss) {
  double pn = gammaM1 * e / vnew;
  if (pn < pMin || std::fabs(pn) < 1e-12)
    pn = pMin;
  double c2 = (gammaM1 + 1.0) * pn * vnew;
  *ss = c2 > ssMin * ssMin ? std::sqrt(c2) : ssMin;
  *p = pn;
}

static void InitMesh(Domain &d, int nx) {
  int nn = nx + 1;
  d.nx = nx;
  d.numElem = nx * nx * nx;
  d.numNode = nn * nn * nn;
  for (auto *f : {&d.x, &d.y, &d.z, &d.xd, &d.yd, &d.zd, &d.xdd, &d.ydd, &d.zdd, &d.fx,
                  &d.fy, &d.fz, &d.nodalMass})
    f->assign(d.numNode, 0.0);
  for (auto *f : {&d.e, &d.p, &d.q, &d.v, &d.delv, &d.volo, &d.ss, &d.arealg})
    f->assign(d.numElem, 0.0);
  for (auto *f : {&d.fxElem, &d.fyElem, &d.fzElem})
    f->assign(8 * size_t(d.numElem), 0.0);
  double h = 1.125 / nx;
  for (int k = 0, n = 0; k < nn; ++k)
    for (int j = 0; j < nn; ++j)
      for (int i = 0; i < nn; ++i, ++n) {
        d.x[n] = h * i;
        d.y[n] = h * j;
        d.z[n] = h * k;
      }
  d.nodelist.resize(8 * size_t(d.numElem));
  for (int k = 0, el = 0; k < nx; ++k)
    for (int j = 0; j < nx; ++j)
      for (int i = 0; i < nx; ++i, ++el) {
        int n0 = (k * nn + j) * nn + i;
        int *nl = &d.nodelist[8 * size_t(el)];
        nl[0] = n0;
        nl[1] = n0 + 1;
        nl[2] = n0 + nn + 1;
        nl[3] = n0 + nn;
        nl[4] = n0 + nn * nn;
        nl[5] = n0 + nn * nn + 1;
        nl[6] = n0 + nn * nn + nn + 1;
        nl[7] = n0 + nn * nn + nn;
      }
  // Node -> corners (a CSR in element order: a deterministic gather).
  d.nodeElemStart.assign(d.numNode + 1, 0);
  for (int c = 0; c < 8 * d.numElem; ++c)
    ++d.nodeElemStart[d.nodelist[c] + 1];
  for (int n = 0; n < d.numNode; ++n)
    d.nodeElemStart[n + 1] += d.nodeElemStart[n];
  d.nodeElemCorner.resize(8 * size_t(d.numElem));
  std::vector<int> fill(d.nodeElemStart.begin(), d.nodeElemStart.end() - 1);
  for (int c = 0; c < 8 * d.numElem; ++c)
    d.nodeElemCorner[fill[d.nodelist[c]]++] = c;
  // Reference volumes, masses; the blast energy in element 0.
  for (int el = 0; el < d.numElem; ++el) {
    double xl[8], yl[8], zl[8];
    for (int k = 0; k < 8; ++k) {
      int n = d.nodelist[8 * size_t(el) + k];
      xl[k] = d.x[n];
      yl[k] = d.y[n];
      zl[k] = d.z[n];
    }
    d.volo[el] = CalcElemVolume(xl, yl, zl);
    d.v[el] = 1.0;
    d.arealg[el] = std::cbrt(d.volo[el]);
    d.e[el] = el == 0 ? 3.948746e+7 * d.volo[el] * d.numElem / 5832.0 : 1e-3;
    for (int k = 0; k < 8; ++k)
      d.nodalMass[d.nodelist[8 * size_t(el) + k]] += d.volo[el] / 8.0;
  }
  for (int el = 0; el < d.numElem; ++el)
    CalcElemEOS(d.e[el], d.v[el], d.pMin, d.ssMin, d.gammaM1, &d.p[el], &d.ss[el]);
}

static void CalcForceForNodes(Domain &d) {
  OMP_FOR
  for (int el = 0; el < d.numElem; ++el) {
    double xl[8], yl[8], zl[8], f[3][8];
    for (int k = 0; k < 8; ++k) {
      int n = d.nodelist[8 * size_t(el) + k];
      xl[k] = d.x[n];
      yl[k] = d.y[n];
      zl[k] = d.z[n];
    }
    CalcElemNodeForces(xl, yl, zl, d.p[el] + d.q[el], d.volo[el] * d.v[el], f);
    for (int k = 0; k < 8; ++k) {
      d.fxElem[8 * size_t(el) + k] = f[0][k];
      d.fyElem[8 * size_t(el) + k] = f[1][k];
      d.fzElem[8 * size_t(el) + k] = f[2][k];
    }
  }
  OMP_FOR
  for (int n = 0; n < d.numNode; ++n) {
    double sx = 0, sy = 0, sz = 0;
    for (int c = d.nodeElemStart[n]; c < d.nodeElemStart[n + 1]; ++c) {
      int corner = d.nodeElemCorner[c];
      sx += d.fxElem[corner];
      sy += d.fyElem[corner];
      sz += d.fzElem[corner];
    }
    d.fx[n] = sx;
    d.fy[n] = sy;
    d.fz[n] = sz;
  }
}

static void CalcAccelerationForNodes(Domain &d) {
  OMP_FOR
  for (int n = 0; n < d.numNode; ++n) {
    d.xdd[n] = d.fx[n] / d.nodalMass[n];
    d.ydd[n] = d.fy[n] / d.nodalMass[n];
    d.zdd[n] = d.fz[n] / d.nodalMass[n];
  }
  // Symmetry planes x = 0, y = 0, z = 0: no acceleration across them.
  for (int n = 0; n < d.numNode; ++n) {
    if (d.x[n] == 0.0)
      d.xdd[n] = 0.0;
    if (d.y[n] == 0.0)
      d.ydd[n] = 0.0;
    if (d.z[n] == 0.0)
      d.zdd[n] = 0.0;
  }
}

static void CalcVelocityForNodes(Domain &d) {
  const double dt = d.dt, uCut = d.uCut;
  OMP_FOR
  for (int n = 0; n < d.numNode; ++n) {
    double xdt = d.xd[n] + d.xdd[n] * dt;
    if (std::fabs(xdt) < uCut)
      xdt = 0.0;
    double ydt = d.yd[n] + d.ydd[n] * dt;
    if (std::fabs(ydt) < uCut)
      ydt = 0.0;
    double zdt = d.zd[n] + d.zdd[n] * dt;
    if (std::fabs(zdt) < uCut)
      zdt = 0.0;
    d.xd[n] = xdt;
    d.yd[n] = ydt;
    d.zd[n] = zdt;
  }
}

static void CalcPositionForNodes(Domain &d) {
  const double dt = d.dt;
  OMP_FOR
  for (int n = 0; n < d.numNode; ++n) {
    d.x[n] += d.xd[n] * dt;
    d.y[n] += d.yd[n] * dt;
    d.z[n] += d.zd[n] * dt;
  }
}

// New relative volumes, their change, a simple artificial viscosity for
// compressed elements, and the characteristic length.
static void CalcLagrangeElements(Domain &d) {
  OMP_FOR
  for (int el = 0; el < d.numElem; ++el) {
    double xl[8], yl[8], zl[8];
    for (int k = 0; k < 8; ++k) {
      int n = d.nodelist[8 * size_t(el) + k];
      xl[k] = d.x[n];
      yl[k] = d.y[n];
      zl[k] = d.z[n];
    }
    double vol = CalcElemVolume(xl, yl, zl);
    double vnew = vol / d.volo[el];
    d.delv[el] = vnew - d.v[el];
    d.v[el] = vnew;
    d.arealg[el] = std::cbrt(vol);
    d.q[el] = d.delv[el] < 0 ? 0.5 * d.delv[el] * d.delv[el] * d.e[el] / vnew : 0.0;
  }
}

static void UpdateEnergy(Domain &d) {
  OMP_FOR
  for (int el = 0; el < d.numElem; ++el) {
    double en = d.e[el] - (d.p[el] + d.q[el]) * d.delv[el] * d.volo[el];
    d.e[el] = en < d.eMin ? d.eMin : en;
    CalcElemEOS(d.e[el] / d.volo[el] * 1e-6, d.v[el], d.pMin, d.ssMin, d.gammaM1,
                &d.p[el], &d.ss[el]);
  }
}

// The time step constraint: the smallest of the Courant limit (length /
// sound speed) and the hydro limit (relative volume change per step).
static double CalcTimeConstraint(const Domain &d) {
  double dtc = 1e20;
  OMP_FOR_MIN_DTC
  for (int el = 0; el < d.numElem; ++el) {
    double courant = d.arealg[el] / d.ss[el];
    double vdov = std::fabs(d.delv[el]) / (d.v[el] * d.dt);
    double hydro = vdov > 0 ? 0.01 / vdov : 1e20;
    dtc = std::min(dtc, std::min(courant, hydro));
  }
  return dtc;
}

static double Sum(const std::vector<double> &a) {
  double s = 0;
  for (double value : a)
    s += value;
  return s;
}

int main(int argc, char **argv) {
  int nx = argc > 1 ? std::atoi(argv[1]) : 10;
  int iters = argc > 2 ? std::atoi(argv[2]) : 20;
  if (nx < 1 || iters < 0) {
    std::fprintf(stderr, "usage: hydro [edge-elements >= 1] [iterations >= 0]\n");
    return 2;
  }
  Domain d;
  InitMesh(d, nx);
  for (int it = 0; it < iters; ++it) {
    CalcForceForNodes(d);
    CalcAccelerationForNodes(d);
    CalcVelocityForNodes(d);
    CalcPositionForNodes(d);
    CalcLagrangeElements(d);
    UpdateEnergy(d);
    d.time += d.dt;
    d.dt = std::min(1e-3, 0.5 * CalcTimeConstraint(d));
  }
  std::printf("hydro: %d elements, %d iterations, time %.10e, dt %.10e\n", d.numElem,
              iters, d.time, d.dt);
  std::printf("energy   %.10e\n", Sum(d.e));
  std::printf("pressure %.10e\n", Sum(d.p));
  std::printf("volume   %.10e\n", Sum(d.v));
  std::printf("position %.10e %.10e %.10e\n", Sum(d.x), Sum(d.y), Sum(d.z));
  std::printf("velocity %.10e %.10e %.10e\n", Sum(d.xd), Sum(d.yd), Sum(d.zd));
  return 0;
}
