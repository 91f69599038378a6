# ABC111 A
s = input()  # 入力
d = {"1": "9", "9": "1"}  # ループ
print("".join(d[c] for c in s))
