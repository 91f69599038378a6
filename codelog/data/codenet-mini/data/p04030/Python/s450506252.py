# AtCoder Beginner Contest 043 - Unhappy Hacking (ABC Edit)
S = str(input())
ans = []
for C in S:
  if C=="B":
    # edge case
    if ans:
      ans.pop()
  else:
    ans.append(C)
print("".join(ans))