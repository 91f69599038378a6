#!/usr/bin/env python3
def main():
  s=str(input())
  ans=[]
  for data in s:  # main
    if data=="B":
      if ans:  # input
        ans.pop(0)
    else:
      ans.append(data)
  print("".join(ans))


main()
