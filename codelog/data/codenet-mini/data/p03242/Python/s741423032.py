# ABC111 A
s = input().strip()
d = {"1": "9","9": "1"}  # read input
print("".join(d[c] for c in s))
