// SPDX-License-Identifier: MIT
#include <cstdlib>

#include "subcommands.hpp"

#ifdef MOLSTEP_HAVE_MPI
#include <mpi.h>
#endif

namespace molstep::app {

MpiSession::MpiSession([[maybe_unused]] int& argc, [[maybe_unused]] char**& argv) {
#ifdef MOLSTEP_HAVE_MPI
  const bool launched = std::getenv("OMPI_COMM_WORLD_SIZE") || std::getenv("PMI_SIZE") || std::getenv("PMIX_RANK");
  if (launched) {
    MPI_Init(&argc, &argv);
    active_ = true;
  }
#endif
}

MpiSession::~MpiSession() {
#ifdef MOLSTEP_HAVE_MPI
  if (active_) MPI_Finalize();
#endif
}

}  // namespace molstep::app
