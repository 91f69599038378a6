# AtCoder Beginner Contest 043 - Unhappy Hacking (ABC Edit)
s = input()
skip = 0
res = ""
for c in reversed(s):
  if c == "B":
    skip += 1
  elif skip > 0:
    skip -= 1
  else:
    # print answer
    res = c + res
print(res)
