// Display formatting shared by the CLI's Markdown page and the tests: the rounding rules of
// the estimation model, section 0 (half-up on the binary value, as JavaScript's toFixed).
#ifndef VRAMCALC_DISPLAY_H_
#define VRAMCALC_DISPLAY_H_

#include <cstdint>
#include <string>
#include <string_view>

namespace vramcalc {

// `value` with `decimals` digits after the point, rounded half-up on its exact binary value
// (JavaScript's Number.prototype.toFixed). Finite values only; |value| < 1e21. `decimals` is
// taken as 0 to 18 (below 0: 0, above 18: 18).
std::string FormatFixed(double value, int decimals);

// Memory as the page shows it: two decimals and "GB" (which is GiB, estimation model 0):
// 21.7766 → "21.78 GB".
std::string FormatGb(double gib);

// A share in percent as its display shows it, read back as a number: FormatFixed(percent, 1)
// as a double. Up to ±kMaxPercent (beyond, clamped) its tenths are fewer than 2^53 and computed
// in 64 bits, exactly, so no decimal text is read (nor 128-bit arithmetic linked).
inline constexpr double kMaxPercent = 1e6;
double RoundPercentHalfUp(double percent);

// An integer with "," between thousands, as the reference page writes it: 61,544.
std::string FormatGrouped(int64_t value);

// A time as the page shows it: two decimals below 10 s, one below 2 minutes, else minutes and
// seconds: 0.517 → "0.52 s", 61.25 → "61.3 s", 125.4 → "2 min 5 s"; 0 or less: "—" (no estimate).
std::string FormatSeconds(double seconds);

// A token count as a context label: 32768 → "32K", 1048576 → "1M", 50000 → "50,000".
std::string ContextLabel(int64_t tokens);

// A parameter count in billions: 32e9 → "32B", 3.8e9 → "3.8B", 0.6e9 → "0.6B".
std::string ParamsLabel(double params);

// A percentage with at most one decimal and no trailing ".0": 83.0 → "83", 8.8 → "8.8".
std::string FormatShare(double percent);

// Text from a model's own fields (its display name, a config.json's or a model description's
// repo id) as one word of a shell command: letters, digits, ".", "_" (and "/" with `slashes`)
// stay, every run of other bytes becomes one "-", none leads or trails (no flag), so a copied
// command runs what it shows and nothing else: "Llama 4 Scout (17Bx16E)" →
// "Llama-4-Scout-17Bx16E", "$(id)" → "id".
std::string ShellWord(std::string_view text, bool slashes = false);

// Whether `text` holds a control character (a line break, a tab): names shown on one line refuse them.
inline bool HasControlCharacter(std::string_view text) {
  for (const char c : text) {
    if (static_cast<unsigned char>(c) < 0x20) return true;
  }
  return false;
}

}  // namespace vramcalc

#endif  // VRAMCALC_DISPLAY_H_
