"""The rules: state, actions, flow, stack, modes. No I/O, no printing."""
