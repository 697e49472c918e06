"""board_bridge.online"""
