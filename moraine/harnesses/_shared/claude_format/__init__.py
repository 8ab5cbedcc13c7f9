"""claude_format"""
