def calc(aa, left):
    return aa if left==0 else calc(left, aa%left)


nums = list(map(int, input().split()))
mn, ii = nums[0], nums[1]
print(calc(mn, ii))
