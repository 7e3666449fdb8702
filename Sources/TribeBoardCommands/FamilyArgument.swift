import ArgumentParser
import TribeBoardDomain

/// A family named on the command line (`doctor family`, `recode`, `remove`, `merge`, `adopt`):
/// nothing but white space, as `FamilyQuery` trims it (tabs, line breaks, no-break and zero-width
/// spaces), names none and is refused as usage before anything is opened.
enum FamilyArgument {
    static func check(_ typed: String...) throws {
        if typed.contains(where: { FamilyQuery($0).isEmpty }) {
            throw ValidationError("give a family's record id, code or external id.")
        }
    }
}
