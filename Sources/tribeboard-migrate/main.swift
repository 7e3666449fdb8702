import TribeBoardCommands

MigrateCommand.main()
