import Foundation

/// The app's validators (`Utilities/Validation.swift`, tafmawere/TribeBoard, branch `uix`,
/// commit 7eccb7f), restated: the kit refuses to write what the app would refuse to show. Each
/// answer is the app's own message, so a person sees the same words either way.
public enum AppRules {
    public static let familyNameLengths: ClosedRange<Int> = 2...50
    public static let displayNameLengths: ClosedRange<Int> = 1...30
    /// `CharacterSet.alphanumerics` (letters, marks, numbers), `.whitespaces` and `' - . ,`.
    public static let allowedInNames: CharacterSet = CharacterSet.alphanumerics
        .union(.whitespaces)
        .union(CharacterSet(charactersIn: "'-.,"))

    /// Nil when the app accepts the name, else the app's message.
    public static func familyNameProblem(_ name: String) -> String? {
        nameProblem(name, label: "Family name", lengths: familyNameLengths)
    }

    public static func displayNameProblem(_ name: String) -> String? {
        nameProblem(name, label: "Display name", lengths: displayNameLengths)
    }

    private static func nameProblem(_ name: String, label: String, lengths: ClosedRange<Int>) -> String? {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.isEmpty { return "\(label) cannot be empty" }
        if trimmed.count < lengths.lowerBound {
            return "\(label) must be at least \(lengths.lowerBound) characters"
        }
        if trimmed.count > lengths.upperBound {
            return "\(label) cannot exceed \(lengths.upperBound) characters"
        }
        if !trimmed.unicodeScalars.allSatisfy({ allowedInNames.contains($0) }) {
            return "\(label) contains invalid characters"
        }
        return nil
    }
}
