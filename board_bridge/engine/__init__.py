"""board_bridge.engine"""
