def solve():
  bb=int(input())
  aa=list(map(int, input().split()))

  print(*reversed(aa))


if __name__ == "__main__":
  solve()
