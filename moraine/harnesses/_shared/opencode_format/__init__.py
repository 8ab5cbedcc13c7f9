"""opencode_format"""
