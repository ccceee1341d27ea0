"""SEAL's feedback: its guesses and utility scores as the anonymizer reads them."""
