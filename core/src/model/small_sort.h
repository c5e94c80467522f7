// A stable sort for short lists: the catalog's hundred models, a few dozen devices, a KV
// layout's eight tiers.
#ifndef VRAMCALC_SRC_MODEL_SMALL_SORT_H_
#define VRAMCALC_SRC_MODEL_SMALL_SORT_H_

#include <algorithm>

namespace vramcalc::internal {

// Insertion sort: stable, and for lists this short as quick as std::stable_sort, whose merge
// sort the wasm module instantiated once per comparator (3 KiB of code each, 5 KiB for two).
template <typename It, typename Less>
void StableSortSmall(It first, It last, Less less) {
  for (It i = first; i != last; ++i) {
    for (It j = i; j != first && less(*j, *(j - 1)); --j) std::iter_swap(j, j - 1);
  }
}

}  // namespace vramcalc::internal

#endif  // VRAMCALC_SRC_MODEL_SMALL_SORT_H_
