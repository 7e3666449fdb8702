





























                isStoredInMemoryOnly: false,
                allowsSave: true,
                groupContainer: .identifier("group.dante.ToDoozies"),
                cloudKitDatabase: .private("iCloud.dante.ToDoozies")
            )

            return try ModelContainer(for: schema, configurations: [configuration])
