"""Model servers: structured-output modes, fault handling and retries."""
