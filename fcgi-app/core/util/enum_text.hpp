#pragma once
// The one conversion each way between a domain state and its text (a column's value, an API
// member's): a table of the enum's texts in the enum's order, declared beside the enum as
//   enum class TicketStatus : uint8_t { open, waiting, closed };
//   template <> struct StateTexts<TicketStatus> {
//       static constexpr EnumText<TicketStatus, 3> table{{"open", "waiting", "closed"}, "ticket status"};
//   };
// and used as to_text(s), parse_state<E>(text) (nullopt for a text of no state) and
// state_from_text<E>(text) (throws). docs/decisions.md "Domain states as enums, text only at
// the edges".
#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace cabinet {

template <typename E, std::size_t N>
class EnumText {
public:
    // `texts[i]` is the text of the enum's value i; `what` names the state in errors. A
    // list shorter than N leaves an empty text, which does not compile (constant evaluation).
    constexpr EnumText(const std::string_view (&texts)[N], std::string_view what) : what_(what) {
        for (std::size_t i = 0; i < N; ++i) {
            if (texts[i].empty()) throw std::logic_error("EnumText: a state without its text");
            texts_[i] = texts[i];
        }
    }
    constexpr std::string_view text(E e) const { return texts_[static_cast<std::size_t>(e)]; }
    constexpr std::optional<E> parse(std::string_view text) const {
        for (std::size_t i = 0; i < N; ++i)
            if (texts_[i] == text) return static_cast<E>(i);
        return std::nullopt;
    }
    // std::invalid_argument for a text that is no state (a column's CHECK allows none).
    E from(std::string_view text) const {
        if (const auto e = parse(text)) return *e;
        throw std::invalid_argument("not a " + std::string(what_) + ": " + std::string(text));
    }
    static constexpr std::size_t size() { return N; }
    // "a, b, c": the texts, for an error that says what is allowed.
    std::string list() const {
        std::string out;
        for (const auto t : texts_) out += (out.empty() ? "" : ", ") + std::string(t);
        return out;
    }

private:
    std::string_view texts_[N]{};
    std::string_view what_;
};

// Specialized beside each state enum with its `table`.
template <typename E>
struct StateTexts;

template <typename E>
concept StateWithTexts = requires { StateTexts<E>::table; };

template <StateWithTexts E>
constexpr std::string_view to_text(E e) {
    return StateTexts<E>::table.text(e);
}
template <StateWithTexts E>
constexpr std::optional<E> parse_state(std::string_view text) {
    return StateTexts<E>::table.parse(text);
}
template <StateWithTexts E>
E state_from_text(std::string_view text) {
    return StateTexts<E>::table.from(text);
}

}  // namespace cabinet
