import Foundation

/// A schema file applied to an environment that already holds a schema (grown by writes, kept in
/// `--data`), as `cktool import-schema` adds to a container: new types, new fields and new
/// indexes are added, the file's security roles replace a type's grants, and nothing is removed.
/// A field whose type differs is refused, as CloudKit never changes a field's type.
extension ContainerSchema {
    public func importing(_ file: ContainerSchema) throws(SchemaImportConflict) -> ContainerSchema {
        var merged = self
        merged.roles.formUnion(file.roles)
        for (name, imported) in file.types {
            guard var type = merged.types[name] else {
                merged.types[name] = imported
                continue
            }
            for (fieldName, field) in imported.fields {
                guard var held = type.fields[fieldName] else {
                    type.fields[fieldName] = field
                    continue
                }
                guard held.type == field.type else {
                    throw SchemaImportConflict(
                        recordType: name, field: fieldName, held: held.type, imported: field.type)
                }
                held.queryable = held.queryable || field.queryable
                held.sortable = held.sortable || field.sortable
                held.searchable = held.searchable || field.searchable
                type.fields[fieldName] = held
            }
            type.grants = imported.grants
            merged.types[name] = type
        }
        return merged
    }
}

public struct SchemaImportConflict: Error, Equatable, CustomStringConvertible {
    public var recordType: String
    public var field: String
    public var held: String
    public var imported: String

    public var description: String {
        "field '\(field)' of \(recordType) is \(held) in the container and \(imported) in the schema; a field's type cannot change"
    }
}
