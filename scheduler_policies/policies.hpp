#pragma once
// Trapeze's scheduling policies, selected by name like StarPU's own
// (STARPU_SCHED=trapeze-owner, or RuntimeOptions::scheduler); the Runtime
// hands the chosen one to StarPU as starpu_conf::sched_policy.
#include <starpu.h>

#include <array>
#include <string_view>

namespace trapeze::policies {

starpu_sched_policy* owner_policy();
starpu_sched_policy* wavefront_policy();

inline std::array<starpu_sched_policy*, 2> all() { return {owner_policy(), wavefront_policy()}; }

// The policy of that name, or nullptr.
inline starpu_sched_policy* find(std::string_view name) {
  for (starpu_sched_policy* p : all()) {
    if (name == p->policy_name) return p;
  }
  return nullptr;
}

}  // namespace trapeze::policies
