import sys

def main():
  nums=int(sys.stdin.readline())
  a=[int(sys.stdin.readline()) for _ in range(nums)]
  mx=0
  for x in a:
    print(mx)
    mx=max(mx, x)


main()
