import GRDB
import TribeBoardDomain

// Typed record ids (TribeBoardDomain) are their text in a column.
extension FamilyID: DatabaseValueConvertible {}
extension UserID: DatabaseValueConvertible {}
extension MembershipID: DatabaseValueConvertible {}
