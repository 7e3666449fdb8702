import TribeBoardCommands

SheetsCommand.main()
