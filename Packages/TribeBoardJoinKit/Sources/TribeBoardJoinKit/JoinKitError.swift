/// Why a flow of the kit did not finish. Errors of the database itself (a native `CKError`, the
/// toolkit's `CloudKitError`) are passed through unchanged, not wrapped in this.
public enum JoinKitError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The code could not be used; `lookup.stop` says where the lookup stopped.
    case familyNotFound(CodeLookup.Stop)
    /// A name the app's validators refuse: the app's own message.
    case nameRefused(String)
    /// Every generated code was taken (a near impossibility: say "try again").
    case noFreeCode(attempts: Int)
    /// A `UserProfile` with this id exists with another `appleUserIdHash`.
    case profileBelongsToSomeoneElse
    /// The family's admin seat is taken by another person.
    case adminSeatTaken
    /// An active `parent_admin` membership other than the seat exists (an older family).
    case familyHasAdmin
    /// Joining as `parent_admin` goes through `activateInvitedAdmin`, never `join`.
    case adminRoleThroughActivation

    public var description: String {
        switch self {
        case .familyNotFound(let stop): return "no family for this code (\(stop))"
        case .nameRefused(let message): return message
        case .noFreeCode(let attempts): return "\(attempts) generated codes were all taken; try again"
        case .profileBelongsToSomeoneElse: return "this profile id belongs to another person"
        case .adminSeatTaken: return "this family's admin has already joined"
        case .familyHasAdmin: return "this family already has an active admin"
        case .adminRoleThroughActivation: return "an admin joins through activateInvitedAdmin"
        }
    }
}
