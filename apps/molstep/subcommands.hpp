// SPDX-License-Identifier: MIT
#pragma once

#include <CLI/CLI.hpp>
#include <functional>

namespace molstep::app {

/// Registers `molstep md` on `app`; the returned function runs it after parsing and returns the
/// process exit code.
std::function<int()> add_md_command(CLI::App& app);
/// Registers `molstep analyze`.
std::function<int()> add_analyze_command(CLI::App& app);

}  // namespace molstep::app
