extension CloudKitFilter {
    /// A REFERENCE field equal to the record of this name (a membership's `family`).
    package static func references(_ field: String, _ recordName: String) -> Self {
        Self(
            fieldName: field, comparator: "EQUALS",
            fieldValue: CloudKitRecord.Field(
                value: .object(["recordName": .string(recordName)]), type: "REFERENCE"))
    }
}
