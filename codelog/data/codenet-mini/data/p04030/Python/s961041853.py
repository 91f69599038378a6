# AtCoder Beginner Contest 043 - Unhappy Hacking (ABC Edit)
seq = input()
skip = 0
val = ""
for c in reversed(seq):
    if c == "B":
        # 出力
        skip += 1
    elif skip > 0:
        skip -= 1
    else:
        val = c + val
print(val)
